"""Paths of the Lance (Brothers-in-Arms Games, 2014), the card-driven expansion to DL 11 *Dragons of Glory*.

The expansion layers an event deck, war status and eras, neutral-nation activation, Berem, highlord
replacement and a few optional rules (winter, command and control) over the DL 11 board game. Only what the
expansion itself states is modelled; anything it leaves to DL 11 or to charts it does not reproduce (the War
Status chart, the victory point chart, card values) is a parameter of the function that needs it.

Conventions: the two sides are "HL" (Highlord / dragonarmies) and "WS" (Whitestone). The victory marker is a
signed number, positive on the HL track and negative on the WS track. Where no side applies (no winner, an
uncaptured Berem) results say "none". Dice are explicit faces (d10 unless a
rule says d6), so every ruling replays exactly.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Literal

from engine.calculators import Calculator, Param, and_list
from engine.dice import Band, check_face, lookup

GAME = "paths-of-the-lance"  # this module is that game's engine (engine.registry finds it by this)

SIDES = ("HL", "WS")
D10, D6 = 10, 6    # rolls are d10s unless a rule says d6
NOBODY = "none"   # results name no side this way (scenario files are TOML, which has no null)


def _side(side: str) -> str:
    if side not in SIDES:
        raise ValueError(f"unknown side {side!r}; sides are HL and WS")
    return side


def _other(side: str) -> str:
    return "WS" if _side(side) == "HL" else "HL"


# --- Eras, hands and the event deck -------------------------------------------------------------------

@dataclass(frozen=True)
class Era:
    number: int
    name: str
    outline: str          # the card outline colour added to the deck when the era begins
    starts_at: int        # war status that triggers it (Using the Event Cards 4, New Rules H)
    hand_size: int        # New Sequence of Play step 1


ERAS = (
    Era(1, "Autumn Twilight", "red", 1, 5),
    Era(2, "Winter Midnight", "blue", 15, 6),
    Era(3, "Spring Dawning", "green", 30, 7),
)
WAR_STATUS_START = 1
WAR_STATUS_UNTRACKED = ERAS[2].starts_at   # "After the changeover to the third era, war status is no longer tracked"

# The calculators' bounds, the game's own with a margin. A card's AP and RP are single figures; a leader's
# combat rating is a few points (a d6 at or under it escapes); the War Status chart's bonuses, not in the
# source, are a few points either way; an army's combat strength and movement are single figures, so a border
# of HL armies stays below 200 strength and no movement allowance reaches 50.
MAX_CARD_TOTAL = 40
MAX_COMBAT_RATING = 10
MAX_VP_BONUS = 20
MAX_STRENGTH = 200
MAX_MOVEMENT = 50
# Victory points: 25 is a total victory that ends the game, so the marker never runs far past it.
MAX_VP = 60
# Berem's d10s: only a 9 or a 10 with no neutral city is rolled again, so 20 rolls are always enough.
MAX_BEREM_ROLLS = 20


def era(war_status: int) -> int:
    """The era (1-3) a war status puts the game in: the second at 15, the third at 30."""
    if war_status < 0:
        raise ValueError(f"war status cannot be negative (got {war_status})")
    return max(e.number for e in ERAS if war_status >= e.starts_at or e.number == 1)


def _era(number: int) -> Era:
    if number not in (1, 2, 3):
        raise ValueError(f"there are three eras, not {number}")
    return ERAS[number - 1]


def event_deck(era_number: int) -> dict:
    """Which outlined cards the Event Deck holds in an era: each era shuffles its colour into the deck."""
    current = _era(era_number)
    return {"era": current.name, "outlines": [e.outline for e in ERAS if e.number <= current.number]}


def replenish_hand(era_number: int, held: int) -> dict:
    """Step 1: the hand size of the era (5 / 6 / 7) and how many cards a player holding `held` draws.

    "Replenish hand" is read as drawing up to the era's hand size, never below what is already held.
    """
    if held < 0:
        raise ValueError("a hand cannot hold fewer than 0 cards")
    size = _era(era_number).hand_size
    return {"hand_size": size, "draw": max(0, size - held)}


def hand_size(war_status: Annotated[int, Param("current war status (1 at the start; 15 starts era 2, 30 era 3)",
                                                min=0, max=WAR_STATUS_UNTRACKED)]) -> dict:
    """Hand size for a war status: 5 cards in era 1, 6 in era 2, 7 in era 3."""
    number = era(war_status)
    return {"era": number, "hand_size": _era(number).hand_size}


# --- Turn sequence --------------------------------------------------------------------------------------

PHASE_CHOICES = ("cards", "move")   # play cards, or move (and fight)


@dataclass(frozen=True)
class Step:
    number: int
    side: str       # "both", or the side acting alone
    action: str


def turn_sequence(initiative: str, initiative_first: str = "cards", other_first: str = "cards") -> list[Step]:
    """The eleven steps of a turn, given who has initiative and what each side chooses to do first.

    Each side has two phases (steps 4-7): one playing cards, one moving and fighting; the second is whichever
    was not done first. The initiative player acts first in both rounds.
    """
    other = _other(initiative)
    for choice in (initiative_first, other_first):
        if choice not in PHASE_CHOICES:
            raise ValueError(f"a phase is 'cards' or 'move', not {choice!r}")

    def second(first: str) -> str:
        return PHASE_CHOICES[1 - PHASE_CHOICES.index(first)]

    return [
        Step(1, "both", "replenish hand"),
        Step(2, "both", "roll a d10 for initiative"),
        Step(3, "both", "event phase: turn one card face-up"),
        Step(4, initiative, initiative_first),
        Step(5, other, other_first),
        Step(6, initiative, second(initiative_first)),
        Step(7, other, second(other_first)),
        Step(8, "both", "check supply"),
        Step(9, "both", "play cards for RPs; place armies re-built last turn"),
        Step(10, "both", "check automatic victory"),
        Step(11, "both", "discard up to one card; shuffle discards into the deck"),
    ]


def turn_step(number: int, initiative: str = "HL", initiative_first: str = "cards", other_first: str = "cards") -> Step:
    """Step `number` (1-11) of the turn sequence."""
    steps = turn_sequence(initiative, initiative_first, other_first)
    if not 1 <= number <= len(steps):
        raise ValueError(f"a turn has {len(steps)} steps, not {number}")
    return steps[number - 1]


def end_of_turn_discard(hand: list[str], discards: list[str]) -> dict:
    """Step 11: a side may discard at most one card; all discards go back into the deck."""
    missing = [c for c in discards if c not in hand]
    if missing:
        raise ValueError(f"cannot discard cards not in hand: {missing}")
    if len(discards) > 1:
        return {"allowed": False, "hand": list(hand), "to_deck": []}
    return {"allowed": True, "hand": [c for c in hand if c not in discards], "to_deck": list(discards)}


# --- Playing cards --------------------------------------------------------------------------------------

CARD_USES = ("event", "ap", "rp")


def play_card(use: str, ap: int, rp: int, asterisk: bool = False) -> dict:
    """The points a card yields and where it goes, played as an event, for APs or for RPs.

    A card is only one of the three, and its value is never split: APs give no RPs and vice versa.
    Points-played cards are discarded; events are removed from the game unless the title has an asterisk.
    """
    if use not in CARD_USES:
        raise ValueError(f"a card is played as {', '.join(CARD_USES)}, not {use!r}")
    if use == "event":
        return {"ap": 0, "rp": 0, "fate": "discarded" if asterisk else "removed"}
    return {"ap": ap if use == "ap" else 0, "rp": rp if use == "rp" else 0, "fate": "discarded"}


def deal_card(nations_at_war: list[str], activates: str = "") -> dict:
    """A dealt activation card for a nation already in the war is eliminated and exchanged for another.

    `activates`: the nation an activation card brings in ("" for any other card).
    """
    dead = bool(activates) and activates in nations_at_war
    return {"kept": not dead, "fate": "eliminated and exchanged" if dead else "kept"}


def trade(drawn_total: Annotated[int, Param("AP+RP total of the face-up event card", min=0, max=MAX_CARD_TOTAL)],
          discard_total: Annotated[int, Param("AP+RP total of the card offered from hand", min=0,
                                              max=MAX_CARD_TOTAL)]) -> dict:
    """Whether a discard may be traded for the event-phase card: the AP+RP totals must be equal."""
    if drawn_total < 0 or discard_total < 0:
        raise ValueError("AP+RP totals cannot be negative")
    return {"allowed": drawn_total == discard_total}


def event_phase_card(initiative: str, drawn_total: int, discard_total: int, war_status: str | None = None,
                     wants: bool = True) -> dict:
    """Step 3: who may claim the face-up card, and whether the offered discard buys it.

    A card with war status for a side goes to that side whoever has initiative; otherwise the initiative
    side may trade. Either way the discard must match its AP+RP total. Unclaimed, the card is discarded.
    """
    claimant = _side(war_status) if war_status is not None else _side(initiative)
    taken = wants and trade(drawn_total, discard_total)["allowed"]
    return {"claimant": claimant, "taken": taken, "card": f"to {claimant}" if taken else "discarded"}


def event_phase_activation(initiative: str, targets: dict[str, int], rolls: list[int],
                           modifiers: dict[str, int] | None = None) -> dict:
    """Step 3 with a country-activation card: the initiative side rolls first, then the other side once.

    `targets` holds each side's activation number from the card and `modifiers` a Diplomatic Coup's
    modifier per side (the card values are not in the source). Success removes the card from the game
    (New Rules B.1); if both rolls fail the card is discarded.
    """
    order = [initiative, _other(initiative)]
    modifiers = modifiers or {}
    made = []
    for side, roll in zip(order, rolls):
        target = targets[side] + modifiers.get(side, 0)
        success = check_face(roll, D10) <= target
        made.append({"side": side, "roll": roll, "target": target, "success": success})
        if success:
            return {"rolls": made, "joins": side, "card": "removed"}
    if len(made) < len(order):
        raise ValueError("not enough rolls given for the activation")
    return {"rolls": made, "joins": NOBODY, "card": "discarded"}


def assault_points(card_aps: list[int], stacks_into_combat: list[int], phase: str = "movement") -> dict:
    """Whether AP cards pay for the attacks: one AP per stack moving into combat, however few its counters.

    `stacks_into_combat` lists how many counters each stack sends into combat. AP cards must be declared
    during the movement phase; any number of them may be played.
    """
    if any(n < 0 for n in card_aps + stacks_into_combat):
        raise ValueError("AP values and counter numbers cannot be negative")
    needed = sum(1 for counters in stacks_into_combat if counters > 0)
    total = sum(card_aps)
    return {"ap": total, "needed": needed, "allowed": phase == "movement" and total >= needed}


# --- Re-building and replenishing ----------------------------------------------------------------------

UNREBUILDABLE = frozenset({"flying", "leader", "undead", "draconian", "maelstrom fleet"})
UNIT_KINDS = frozenset({"army", "fleet", "mercenary", "knight"}) | UNREBUILDABLE
MERCENARY_SITES = ("Neraka", "Dark Temple")


def can_use_rp(side: str, dark_temple_played: bool) -> bool:
    """The HL player may not use RPs until the Dark Temple card is played; the WS player always may."""
    return _side(side) == "WS" or dark_temple_played


def _rebuildable(kind: str) -> bool:
    if kind not in UNIT_KINDS:
        raise ValueError(f"unknown unit kind {kind!r}; kinds: {', '.join(sorted(UNIT_KINDS))}")
    return kind not in UNREBUILDABLE


def rebuild(kind: str, full_strength: int, turn: int, side: str = "WS", dark_temple_played: bool = False,
            house_rule_elimination_cost: int | None = None) -> dict:
    """Cost and timing of re-building an eliminated unit: one RP per strength point, always to full strength.

    The unit goes on the next turn square and is placed at the end of that turn (in or adjacent to its
    capital; fleets in their port city; mercenaries and knights as their own rule says).
    `house_rule_elimination_cost`: the ExcaliburWiki house rule also charges the original game's elimination
    cost for the lost counters; its amount comes from DL 11, not this source, so it is given here.
    """
    if not _rebuildable(kind):
        raise ValueError(f"{kind} units may not be re-built")
    if not can_use_rp(side, dark_temple_played):
        raise ValueError("the HL player may not re-build until the Dark Temple card is played")
    if full_strength < 1:
        raise ValueError("a unit has at least 1 strength point")
    placement = {"fleet": "its country's port city", "mercenary": "Neraka, the Dark Temple or a friendly human city",
                 "knight": "any knight nation"}.get(kind, "in or adjacent to its capital")
    return {"rp": full_strength, "elimination_cost": house_rule_elimination_cost or 0,
            "placed_turn": turn + 1, "placed": placement}


def replenish_site_ok(kind: str, site_type: str, inside_home_borders: bool, site_name: str = "",
                      friendly_human_city: bool = False, knight_nation: bool = False) -> bool:
    """Whether a depleted unit may be replenished where it stands.

    Normally in a city/port or fortress inside its home borders; Highlord mercenaries also in Neraka, the
    Dark Temple or any friendly human city; knights in any knight nation. Unrebuildable kinds never.
    """
    if not _rebuildable(kind):
        return False
    if site_type in ("city", "port", "fortress") and inside_home_borders:
        return True
    if kind == "mercenary":
        return site_name in MERCENARY_SITES or friendly_human_city
    return kind == "knight" and knight_nation


def rp_cards(card_rps: list[int], needed: int) -> dict:
    """RP cards played in the replacement phase: every card must be needed, and unspent RPs are lost.

    A card is unneeded when the other cards already cover what is being built.
    """
    if needed < 0 or any(rp < 0 for rp in card_rps):
        raise ValueError("RPs cannot be negative")
    total = sum(card_rps)
    allowed = all(total - rp < needed for rp in card_rps)
    used = min(total, needed)
    return {"allowed": allowed, "rp": total, "used": used, "lost": total - used}


# --- Highlords ----------------------------------------------------------------------------------------

ARIAKAS = "Ariakas"
WING_HIGHLORDS = {"blue": "Kitiara", "green": "Salah Kahn", "black": "Bolas", "white": "Feal-Thas", "red": "Verminaard"}
REPLACEMENTS = {"Kitiara": "Bakaris", "Salah Kahn": "Topus", "Bolas": "Misif", "Feal-Thas": "Toede",
                "Verminaard": "As'p Tueng"}
MAX_HIGHLORDS = 1 + len(WING_HIGHLORDS)     # one per dragonwing plus Ariakas
TOEDE_RATINGS = {"combat": 1, "movement": 10}
HIGHLORD_HOME = "Dark Temple"


def _highlord(name: str) -> str:
    known = {ARIAKAS, *WING_HIGHLORDS.values(), *REPLACEMENTS.values()}
    plain_name = name.replace("’", "'").strip()
    for candidate in known:
        if candidate.lower() == plain_name.lower():
            return candidate
    raise ValueError(f"unknown highlord {name!r}")


def highlord_enters(wing: str, in_play: list[str]) -> dict:
    """A dragonarmy wing card brings that wing's highlord in (the HL player starts with Ariakas alone)."""
    if wing not in WING_HIGHLORDS:
        raise ValueError(f"no {wing!r} dragonwing; wings: {', '.join(WING_HIGHLORDS)}")
    name = WING_HIGHLORDS[wing]
    if name in in_play or REPLACEMENTS[name] in in_play:
        raise ValueError(f"the {wing} wing's highlord is already in the game")
    if len(in_play) >= MAX_HIGHLORDS:
        raise ValueError(f"only {MAX_HIGHLORDS} highlords may be in the game at once")
    return {"enters": name, "in_play": [*in_play, name]}


def highlord_replacement(highlord: Annotated[str, Param("the eliminated highlord",
                                                         choices=(*WING_HIGHLORDS.values(), *REPLACEMENTS.values()))]
                         ) -> dict:
    """Who replaces an eliminated highlord (placed at once in the Dark Temple, free to move and fight)."""
    name = _highlord(highlord)
    if name == ARIAKAS:
        raise ValueError("the replacement table does not cover Ariakas")
    if name not in REPLACEMENTS:   # a replacement highlord: there are no second-level replacements
        return {"replacement": NOBODY}
    return {"replacement": REPLACEMENTS[name], "placed": HIGHLORD_HOME, "available": "immediately"}


def highlords_may_stack(names: list[str]) -> bool:
    """Only Ariakas may share a stack with another highlord: at most one other highlord per stack."""
    return sum(1 for n in names if _highlord(n) != ARIAKAS) <= 1


# --- Activating neutral nations -----------------------------------------------------------------------

@dataclass(frozen=True)
class Activation:
    nations: tuple[str, ...]
    hl: int
    ws: int


ACTIVATION_NUMBERS = (
    Activation(("Blode", "Kern", "Mithas", "Sanction", "Throtyl"), 7, 1),
    Activation(("Kothas", "Khur", "Tarsis", "Lemish"), 4, 2),
    Activation(("Thorbardin", "Zhakar", "Hylo", "Goodlund", "Nordmaar", "Vingaard"), 1, 4),
    Activation(("Silvanesti", "Qualinesti", "Kaolyn", "Palanthus"), -1, 5),
)
# The only knight nation the source names (the example of B.2); the War Status chart that lists them is not
# reproduced, so other knight nations are flagged by the caller.
KNIGHT_NATIONS = ("Gunthar",)
NATIONS = tuple(n for row in ACTIVATION_NUMBERS for n in row.nations) + KNIGHT_NATIONS
# (side the bonus helps, bonus) by total HL combat strength across the border (B.3).
INVASION_BONUS = (
    Band(1, 6, ("WS", 2)),
    Band(7, 12, ("WS", 1)),
    Band(13, 16, (None, 0)),
    Band(17, 22, ("HL", 1)),
    Band(23, None, ("HL", 2)),
)


def card_activation(target: int, roll: int, coup_modifiers: list[int] | None = None, turn: int = 1) -> dict:
    """An activation card: roll the card's number or less on a d10 (one Diplomatic Coup may modify it).

    On success the card is removed from the game and the nation's forces may move from the next turn; on
    failure the card goes back into the deck.
    """
    coups = coup_modifiers or []
    if len(coups) > 1:
        raise ValueError("only one Diplomatic Coup card can be played per activation attempt")
    if not check_face(roll, D10) <= target + sum(coups):
        return {"activated": False, "card": "back into deck"}
    return {"activated": True, "card": "removed", "may_move_from_turn": turn + 1}


def knight_activation(conquered_by_hl: Annotated[int, Param("nations conquered by the HL", min=0, max=len(NATIONS))],
                      knights_activated: Annotated[int, Param("knight nations already activated", min=0,
                                                              max=len(NATIONS))],
                      war_status: Annotated[int, Param("war status when the roll is called for (knight nations "
                                                       "join from the second era)", min=ERAS[1].starts_at,
                                                       max=WAR_STATUS_UNTRACKED)],
                      vp_bonus: Annotated[int, Param("bonus from the War Status chart, e.g. for VP status",
                                                     min=-MAX_VP_BONUS, max=MAX_VP_BONUS)] = 0,
                      diplomatic_coup: Annotated[bool, Param("a Diplomatic Coup card is played (never allowed "
                                                             "with knight nations)")] = False) -> dict:
    """Knight activation target: the WS player rolls a d10 at or under conquered + activated + bonuses.

    The War Status chart's bonuses (victory point status...) are not in the source: pass them as `vp_bonus`.
    From war status 30 on, every roll gets +2.
    """
    if min(conquered_by_hl, knights_activated) < 0:
        raise ValueError("counts of nations cannot be negative")
    if era(war_status) == 1:
        raise ValueError("knight nations may be activated only from the second era (war status 15)")
    if diplomatic_coup:
        raise ValueError("Diplomatic Coup cards may not be used with knight nations")
    late = 2 if war_status >= WAR_STATUS_UNTRACKED else 0
    return {"target": conquered_by_hl + knights_activated + vp_bonus + late}


def _activation_row(name: str) -> Activation | None:
    """The activation numbers of a nation; None for a knight nation."""
    wanted = name.strip().lower()
    if wanted in (k.lower() for k in KNIGHT_NATIONS):
        return None
    for row in ACTIVATION_NUMBERS:
        if wanted in (n.lower() for n in row.nations):
            return row
    raise ValueError(f"no activation numbers for {name!r}; nations: "
                     + ", ".join(n for row in ACTIVATION_NUMBERS for n in row.nations)
                     + "; knight nations: " + ", ".join(KNIGHT_NATIONS))


def invasion(nation: Annotated[str, Param("the invaded neutral nation (e.g. Tarsis)", choices=NATIONS)],
             strength: Annotated[int, Param("combined combat strength of HL armies across the border", min=1,
                                            max=MAX_STRENGTH)],
             knight_nation: Annotated[bool, Param("the nation is a knight nation (from the War Status chart)")] = False
             ) -> dict:
    """Invasion activation targets: each side's d10 number after the invading strength bonus.

    Knight nations never join the Highlord: they join Whitestone with no roll.
    """
    if strength < 1:
        raise ValueError("an invasion needs at least 1 combat strength across the border")
    row = None if knight_nation else _activation_row(nation)
    if row is None:
        return {"joins": "Whitestone"}
    helped, bonus = lookup(INVASION_BONUS, strength)
    return {"ws_target": row.ws + (bonus if helped == "WS" else 0),
            "hl_target": row.hl + (bonus if helped == "HL" else 0)}


def resolve_invasion(nation: str, strength: int, rolls: list[int], ws_modifier: int = 0, turn: int = 1,
                     knight_nation: bool = False) -> dict:
    """Roll an invasion out: WS first, then HL, back and forth until the nation joins a side.

    `ws_modifier` is a Diplomatic Coup's modifier (WS only; the HL roll cannot be modified). The nation's
    armies are placed at once but may not move or attack before the next turn.
    """
    targets = invasion(nation, strength, knight_nation)
    made = []
    if "joins" not in targets:
        goal = {"WS": targets["ws_target"] + ws_modifier, "HL": targets["hl_target"]}
        for i, roll in enumerate(rolls):
            side = ("WS", "HL")[i % 2]
            made.append(roll)
            if check_face(roll, D10) <= goal[side]:
                break
        else:
            raise ValueError("the rolls ran out before the nation joined a side")
    # the last roll made is the one that succeeded, and WS makes the odd-numbered rolls
    joins = "WS" if "joins" in targets or len(made) % 2 == 1 else "HL"
    return {"joins": joins, "rolls": made, "may_move_from_turn": turn + 1}


# --- War status ---------------------------------------------------------------------------------------

WAR_STATUS_EVENTS = {"activation": 1, "conquest": 1, "non-aggression pact": -1}
NON_AGGRESSION_PACT = "Non-aggression Pact"


def advance_war_status(events: list, war_status: int = WAR_STATUS_START, knight_squares: list[int] | None = None,
                       knight_nations_left: int = 0) -> dict:
    """War status (1 at the start) after a run of events, the eras it enters, and the knight rolls it calls for.

    `events`: "activation" and "conquest" (+1 each, either side), "non-aggression pact" (-1), or an integer
    (a war-status card played as an event). `knight_squares`: the War Status chart's knight-activation
    squares (the chart is not in the source). Every square reached calls for its own roll; once war status
    has reached 30 it is no longer tracked, and each event that would raise it calls for a roll at +2.
    Rolls are only called while knight nations are left.
    """
    squares = set(knight_squares or [])
    status, entered, rolls = war_status, [], []
    for event in events:
        delta = event if isinstance(event, int) else WAR_STATUS_EVENTS.get(event)
        if delta is None:
            raise ValueError(f"unknown war status event {event!r}")
        if status >= WAR_STATUS_UNTRACKED:
            if delta > 0 and knight_nations_left > 0:
                rolls.append({"at": "event", "bonus": 2})
            continue
        new = max(0, status + delta)
        entered += [e.number for e in ERAS if status < e.starts_at <= new]
        if knight_nations_left > 0:
            # knight nations can only be activated from the second era on
            rolls += [{"at": s, "bonus": 0} for s in sorted(squares)
                      if status < s <= new and s >= ERAS[1].starts_at]
        status = min(new, WAR_STATUS_UNTRACKED)
    return {"war_status": status, "era": era(status), "eras_entered": entered, "knight_rolls": rolls}


def era_change_reveal(hl_hand: list[dict], ws_hand: list[dict], penalise_discarded: bool = False) -> dict:
    """At an era change, war-status cards caught in the opposing side's hand are played against its holder.

    Cards are {"name", "war_status": "WS"|"HL" (absent if none), "value", "playable"}. A card favouring the other side
    is played (adding its war status) and its holder loses VPs equal to that value; an unplayable one is
    discarded. The Non-aggression Pact favours neither side. Whether a discarded card still costs VPs is not
    stated: `penalise_discarded` chooses.
    """
    played, discarded, added = [], [], 0
    penalty = {"HL": 0, "WS": 0}
    for holder, hand in (("HL", hl_hand), ("WS", ws_hand)):
        for card in hand:
            if card.get("war_status") != _other(holder) or card["name"] == NON_AGGRESSION_PACT:
                continue
            if card.get("playable", True):
                played.append(card["name"])
                added += card["value"]
                penalty[holder] += card["value"]
            else:
                discarded.append(card["name"])
                penalty[holder] += card["value"] if penalise_discarded else 0
    return {"played": played, "discarded": discarded, "war_status_added": added, "vp_penalty": penalty}


# --- Leaders, Berem -----------------------------------------------------------------------------------

def leader_escape(combat_rating: Annotated[int, Param("the leader's combat rating", min=0, max=MAX_COMBAT_RATING)],
                  roll: Annotated[int, Param("the d6 rolled", min=1, max=D6)]) -> dict:
    """A leader in an eliminated stack escapes to the nearest friendly stack on a d6 at or under his rating."""
    escapes = check_face(roll, D6) <= combat_rating
    return {"escapes": escapes, "to": "nearest friendly stack" if escapes else "eliminated"}


BEREM_TABLE = {
    1: "Fortress on the Mithas island", 2: "Pax Tharkas", 3: "Fortress SW of Qualinesti", 4: "Kalaman",
    5: "Palanthus", 6: "Kendermore", 7: "Hylo", 8: "Vingaard", 9: "WS choice", 10: "HL choice",
}
BEREM_CHOOSER = {9: "WS", 10: "HL"}


def berem(rolls: Annotated[list[int], Param("d10 rolls in order (extra rolls are used if a choice must be re-rolled)",
                                            min=1, max=D10, count=(1, MAX_BEREM_ROLLS))],
          neutral_cities: Annotated[bool, Param("a neutral city exists on the continent")] = True) -> dict:
    """Where Berem is placed: a d10 on the placement chart; a choice with no neutral city is rolled again."""
    for roll in rolls:
        chooser = BEREM_CHOOSER.get(check_face(roll, D10), NOBODY)
        if chooser == NOBODY:
            return {"roll": roll, "location": BEREM_TABLE[roll], "chooser": NOBODY}
        if neutral_cities:
            return {"roll": roll, "location": f"any neutral continental city ({chooser} choice)", "chooser": chooser}
    raise ValueError("no roll placed Berem (a choice with no neutral city must be rolled again)")


def berem_arrival(armies_in_hex: list[str]) -> dict:
    """Berem appearing in a hex with any army (air or ground) is captured at once by that army's side."""
    owners = {_side(side) for side in armies_in_hex}
    if len(owners) > 1:
        raise ValueError("armies of both sides cannot share a hex")
    return {"captured_by": owners.pop() if owners else NOBODY}


def berem_assault(captor: str, attacker: str, armies_left: int) -> dict:
    """After an assault on Berem's hex: he passes to the attacker if every army with him was eliminated.

    Berem himself is never eliminated.
    """
    _side(attacker)
    captured = armies_left == 0 and captor != attacker
    return {"captured_by": attacker if captured else captor, "eliminated": False}


def berem_move(mover: str, captor: str = NOBODY, into_dark_temple: bool = False) -> dict:
    """Berem moves only when captured, with his captor; the HL bringing him to the Dark Temple wins outright."""
    allowed = _side(mover) == captor
    return {"allowed": allowed,
            "automatic_victory": "HL" if allowed and mover == "HL" and into_dark_temple else NOBODY}


# --- Dragon-to-fleet combat ---------------------------------------------------------------------------

MAX_DRAGON_FLEET_ROUNDS = 2
FLEET_HIT = 1


def can_attack(attacker: str, defender: str) -> bool:
    """Dragons may attack fleets, but fleets may not attack dragons."""
    kinds = {"dragon", "fleet"}
    if {attacker, defender} - kinds:
        raise ValueError("this rule covers dragons and fleets only")
    return attacker == "dragon" and defender == "fleet"


def dragon_fleet_combat(dragon_ratings: list[int], dragon_rolls: list[list[int]], fleet_rolls: list[list[int]],
                        moved: int = 0, movement: int = 0) -> dict:
    """Dragons assaulting fleets: each round every dragon hits on its combat rating or less, every fleet on a 1.

    One list of rolls per round: two rounds at most; one round means the dragons withdrew after the first
    (fleets cannot). Dragons that moved more than half their movement rate cannot assault. Leaders add
    nothing. What a hit does to a unit is DL 11's fleet combat, so each round's hits are reported.
    """
    if moved * 2 > movement:
        raise ValueError("dragons may not move more than half their movement rate to assault fleets")
    if not 1 <= len(dragon_rolls) <= MAX_DRAGON_FLEET_ROUNDS or len(fleet_rolls) != len(dragon_rolls):
        raise ValueError("dragon-to-fleet combat lasts one or two rounds, with rolls for both sides each round")
    rounds = []
    for d_rolls, f_rolls in zip(dragon_rolls, fleet_rolls):
        if len(d_rolls) != len(dragon_ratings):
            raise ValueError("each dragon rolls once per round")
        rounds.append({"dragon_hits": sum(check_face(r, D10) <= rating for r, rating in zip(d_rolls, dragon_ratings)),
                       "fleet_hits": sum(check_face(r, D10) == FLEET_HIT for r in f_rolls)})
    return {"rounds": rounds, "dragon_hits": sum(r["dragon_hits"] for r in rounds),
            "fleet_hits": sum(r["fleet_hits"] for r in rounds)}


# --- Victory ------------------------------------------------------------------------------------------

VICTORY_LEVELS = (
    Band(0, 0, "none"),
    Band(1, 12, "minor"),
    Band(13, 24, "major"),
    Band(25, None, "total"),
)
AUTOMATIC_VP = 25
LAST_TURN = 30


def victory(points: Annotated[int, Param("victory points on the leading side's track", min=0, max=MAX_VP)]) -> dict:
    """Victory level for the points on a side's track: minor 1-12, major 13-24, total at 25."""
    if points < 0:
        raise ValueError("victory points are counted on the leading side's track and cannot be negative")
    return {"level": lookup(VICTORY_LEVELS, points)}


def move_victory_marker(vp: int, side: str, country_vp: int, conquered: bool = False) -> int:
    """The signed VP marker after a country allies with (its VP) or is conquered by (twice its VP) `side`."""
    _side(side)
    gain = country_vp * (2 if conquered else 1)
    return vp + (gain if side == "HL" else -gain)


def site_vp(city_vp: int, capital_vp: int, role: str) -> int:
    """VP of a demi-human capital site: abandoned old capitals are worth nothing; a new capital site is worth
    the capital's VP plus the VP of the city it stands in."""
    return {"abandoned capital": 0, "new capital": capital_vp + city_vp, "city": city_vp}[role]


def automatic_victory(vp: int, ws_captured_dark_temple: bool = False, hl_berem_in_dark_temple: bool = False) -> dict:
    """Automatic total victory (step 10): WS takes the Dark Temple city, HL brings Berem there, or 25 VPs."""
    winner = ("WS" if ws_captured_dark_temple else "HL" if hl_berem_in_dark_temple
              else "HL" if vp >= AUTOMATIC_VP else "WS" if vp <= -AUTOMATIC_VP else NOBODY)
    return {"winner": winner, "level": "total" if winner != NOBODY else NOBODY}


def game_result(vp: int, turn: int) -> dict:
    """The scored result: the game ends after turn 30, won by whoever has the marker on his track."""
    automatic = automatic_victory(vp)
    if automatic["winner"] != NOBODY:
        return {"over": True, **automatic}
    if turn < LAST_TURN:
        return {"over": False, "winner": NOBODY, "level": NOBODY}
    level = victory(abs(vp))["level"]
    return {"over": True, "winner": NOBODY if vp == 0 else "HL" if vp > 0 else "WS", "level": level}


def maelstrom_conquered(maelstrom_fleets_left: int) -> bool:
    """Maelstrom is conquered when its last fleet is eliminated."""
    return maelstrom_fleets_left == 0


# --- Starting conditions, stacking ------------------------------------------------------------------

MAX_FLEETS_PER_HEX = 4


def ws_attack_allowed(countries: list[str], whitestone_council_played: bool) -> bool:
    """Until the Whitestone Council card is played, WS armies of different countries may not attack together."""
    return whitestone_council_played or len(set(countries)) <= 1


def fleets_may_stack(fleets: int) -> bool:
    """At most 4 fleets may stack in one hex."""
    return 0 <= fleets <= MAX_FLEETS_PER_HEX


# --- Optional: winter ---------------------------------------------------------------------------------

WINTER_FREE_CROSSINGS = ("river", "bridge", "ford")
MOUNTAIN_RACES = ("dwarf", "ogre")
WINTER_MOUNTAIN_PENALTY = -2


def winter_movement(kind: Annotated[Literal["fleet", "air", "ground"], Param("unit type")],
                    movement: Annotated[int, Param("normal movement allowance", min=0, max=MAX_MOVEMENT)],
                    winter: Annotated[bool, Param("this is a winter turn")] = True,
                    air_round_up: Annotated[bool, Param("round an air army's odd half up (the source gives no "
                                                   "rounding)")] = False) -> dict:
    """Winter movement: fleets to a third (rounded down), air armies to half, others unchanged."""
    if movement < 0:
        raise ValueError("movement cannot be negative")
    if not winter or kind == "ground":
        return {"movement": movement}
    if kind == "fleet":
        return {"movement": movement // 3}
    return {"movement": (movement + air_round_up) // 2}


def crossing(feature: str, action: str, race: str = "human", winter: bool = False, base_allowed: bool = True,
             base_modifier: int = 0) -> dict:
    """Crossing a river/bridge/ford, mountain pass or mountain hexside to move, attack or trace supply.

    `base_allowed`/`base_modifier` are DL 11's normal rules for the crossing; winter changes them: frozen
    waters have no penalty, passes close, and dwarves and ogres still attack over mountains at -2.
    """
    if action not in ("move", "attack", "supply"):
        raise ValueError(f"action is move, attack or supply, not {action!r}")
    if not winter:
        return {"allowed": base_allowed, "modifier": base_modifier}
    if feature in WINTER_FREE_CROSSINGS:
        return {"allowed": True, "modifier": 0}
    if feature == "mountain pass":
        return {"allowed": False, "modifier": 0}
    if feature == "mountain hexside" and action == "attack" and race in MOUNTAIN_RACES:
        return {"allowed": True, "modifier": base_modifier + WINTER_MOUNTAIN_PENALTY}
    return {"allowed": base_allowed, "modifier": base_modifier}


# --- Optional: command and control ---------------------------------------------------------------------

LEADER_KINDS = ("highlord", "knight", "country", "maelstrom", "minotaur")


def can_command(leader_kind: str, leader_rating: int, army_kind: str, army_side: str, distance: int,
                leader_country: str | None = None, stack_countries: list[str] | None = None) -> bool:
    """Whether a leader commands an army: within his rating in hexes, and of a type he may command."""
    if leader_kind not in LEADER_KINDS:
        raise ValueError(f"leader kind is one of {', '.join(LEADER_KINDS)}")
    _side(army_side)
    if distance > leader_rating:
        return False
    if army_kind == "maelstrom fleet":
        return leader_kind in ("maelstrom", "minotaur")
    if army_kind == "draconian":
        return leader_kind == "highlord"
    if leader_kind == "highlord":
        return army_side == "HL"
    if leader_kind == "knight":
        return army_side == "WS"
    return leader_country in (stack_countries or [])


def army_may_act(commanders: list[dict], army_kind: str, army_side: str, stack_countries: list[str]) -> bool:
    """An army moves or attacks only within the command radius of an eligible leader.

    `commanders`: {"kind", "rating", "distance", "country"} for each leader in reach.
    """
    return any(can_command(c["kind"], c["rating"], army_kind, army_side, c["distance"], c.get("country"),
                           stack_countries) for c in commanders)


def leader_bonus_applies(leader_kind: str, combat: Literal["land", "naval", "dragon-fleet"]) -> bool:
    """Whether a leader may influence a combat: none in dragon-to-fleet combat, the Maelstrom leader never on land."""
    if combat == "dragon-fleet":
        return False
    return not (leader_kind == "maelstrom" and combat == "land")


# --- judges' calculators: each answer in words --------------------------------------------------------

def _say_invasion(inputs: dict, result: dict) -> str:
    if "joins" in result:
        return (f"{inputs['nation']} joins Whitestone with no roll: a knight nation never joins the Highlord.")
    helped, bonus = lookup(INVASION_BONUS, inputs["strength"])
    why = (f"strength {inputs['strength']} across the border gives {'Whitestone' if helped == 'WS' else 'the Highlord'}"
           f" +{bonus}" if bonus else f"strength {inputs['strength']} across the border gives no bonus")
    return (f"{inputs['nation']} joins Whitestone on a d10 of {result['ws_target']} or less, the Highlord on "
            f"{result['hl_target']} or less ({why}).")


def _say_victory(inputs: dict, result: dict) -> str:
    if result["level"] == "none":
        return "No victory: the track is at 0."
    return (f"{inputs['points']} points is a {result['level']} victory (minor 1-12, major 13-24, total at "
            f"{AUTOMATIC_VP}).")


def _say_hand_size(inputs: dict, result: dict) -> str:
    era_ = _era(result["era"])
    return (f"War status {inputs['war_status']} is era {era_.number} ({era_.name}): each player's hand holds "
            f"{result['hand_size']} cards.")


def _say_knight_activation(inputs: dict, result: dict) -> str:
    late = " + 2 from war status 30 on" if inputs["war_status"] >= WAR_STATUS_UNTRACKED else ""
    bonus = f" + {inputs['vp_bonus']} from the War Status chart" if inputs["vp_bonus"] else ""
    return (f"The WS player activates the knight nation on a d10 of {result['target']} or less ("
            f"{inputs['conquered_by_hl']} conquered by the HL + {inputs['knights_activated']} already activated"
            f"{bonus}{late}).")


def _say_trade(inputs: dict, result: dict) -> str:
    if result["allowed"]:
        return f"The trade is allowed: both cards total {inputs['drawn_total']} AP+RP."
    return (f"No trade: the discard totals {inputs['discard_total']} AP+RP and the face-up card "
            f"{inputs['drawn_total']}; they must be equal.")


def _say_leader_escape(inputs: dict, result: dict) -> str:
    if result["escapes"]:
        return (f"The leader escapes to the nearest friendly stack: {inputs['roll']} is at or under his combat "
                f"rating of {inputs['combat_rating']}.")
    return (f"The leader is eliminated with his stack: {inputs['roll']} is over his combat rating of "
            f"{inputs['combat_rating']}.")


def _say_berem(inputs: dict, result: dict) -> str:
    rerolled = inputs["rolls"][:inputs["rolls"].index(result["roll"])]
    placed = (f"places Berem at {result['location']}" if result["chooser"] == NOBODY
              else f"lets the {result['chooser']} player place Berem in any neutral continental city")
    said = f"a roll of {result['roll']} {placed}."
    if rerolled:
        said = (f"{and_list([str(r) for r in rerolled])} named a choice with no neutral city, so the die was rolled "
                f"again; then {said}")
    return said[0].upper() + said[1:]


def _say_highlord_replacement(inputs: dict, result: dict) -> str:
    if result["replacement"] == NOBODY:
        return f"{inputs['highlord']} is already a replacement: nobody replaces him."
    return (f"{inputs['highlord']} is replaced by {result['replacement']}, placed at once in the {result['placed']}, "
            "free to move and fight.")


def _say_winter_movement(inputs: dict, result: dict) -> str:
    unit = {"fleet": "A fleet", "air": "An air army", "ground": "A ground army"}[inputs["kind"]]
    if not inputs["winter"]:
        return f"{unit} moves its full {result['movement']} outside winter."
    how = {"fleet": "a third, rounded down", "air": "half, rounded " + ("up" if inputs["air_round_up"] else "down"),
           "ground": "unchanged"}[inputs["kind"]]
    return f"{unit} moves {result['movement']} in winter ({how}, from {inputs['movement']})."


PL = "paths-of-the-lance/"
CALCULATORS = {
    "invasion": Calculator(invasion, (PL + "new-rules/b/3", PL + "new-rules/b"), _say_invasion),
    "victory": Calculator(victory, (PL + "new-rules/g",), _say_victory),
    "hand-size": Calculator(hand_size, (PL + "new-sequence-of-play/1", PL + "using-the-event-cards/4"),
                            _say_hand_size),
    "knight-activation": Calculator(knight_activation, (PL + "new-rules/b/2",), _say_knight_activation),
    "trade": Calculator(trade, (PL + "new-sequence-of-play/3", PL + "using-the-event-cards/1"), _say_trade),
    "leader-escape": Calculator(leader_escape, (PL + "new-rules/c",), _say_leader_escape),
    "berem": Calculator(berem, (PL + "new-rules/d",), _say_berem),
    "highlord-replacement": Calculator(highlord_replacement, (PL + "new-rules/a",), _say_highlord_replacement),
    "winter-movement": Calculator(winter_movement, (PL + "optional-rules/b", PL + "optional-rules/b/2",
                                                    PL + "optional-rules/b/5"), _say_winter_movement),
}
