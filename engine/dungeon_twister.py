"""Dungeon Twister, as clarified by the "Dungeon Twister Rules Clarifications" post (last updated May 2011).

Dungeon Twister has no dice: combat is character strength plus a combat card chosen in secret, so nothing
here takes a Roller. The module models what the clarifications rule on:

- room reveal: who places which piece, and in what order (revealer first, then the opponent);
- combat: the order of declarations and cards, and the totals (weapons only when attacking, armour and
  shields only when defending, wounded characters at a base value of 0);
- the rope's anchor squares, the small bridge (printed base strength >= 4), no diagonal adjacency;
- 0 AP items (free ones vs. ones used "as though they were an action") and the Action Points a turn costs;
- Fireball Wand users; which ways of killing your own character are allowed; who scores a death;
- tournament tokens behind the starting lines, and the Zombie limit they make visible.

Numbers the clarifications do not give (a Sword's or an Armour's bonus, a Potion of Strength's effect, the
combat card played) are parameters, never constants; only the combat cards' range (0 to 6) is the rulebook's.
Squares are `[column, row]` pairs.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Annotated, Literal

from engine.calculators import CalcError, Calculator, Param, and_list
from engine.names import UnknownName, resolve

GAME = "dungeon-twister"  # this module is that game's engine (engine.registry finds it by this)

# --- static facts quoted from the clarifications -------------------------------------------------------

SMALL_BRIDGE_BREAKING_STRENGTH = 4   # "must have a base strength of four or more to fall through"
DRAGON_SLAYER_BONUS = 4              # "nor does it provide its +4 bonus when defending"
ZOMBIES_PER_GAME = 3                 # tokens behind the lines avoid "summoning a fourth Zombie"
VP_PER_DEATH = 1                     # "the Victory Point for that death goes to the opponent"
SUICIDE_TERRAIN = "Falling Rocks"    # "only one terrain which permits suicide by itself"

# "0 AP items ... fall into two basic categories": used freely at any time, or used as though an action.
FREE = "free"
AS_ACTION = "action"
ZERO_AP_ITEMS = {"Torch": AS_ACTION, "Potion of Strength": FREE}

# What makes an obstacle square safe to anchor a rope on: "another rope, your Thief or a shield".
DISARMERS = ("rope", "own thief", "shield")

# Pieces placed in a revealed room; cursed items and torches are the two exceptions to the general rule.
PIECE_KINDS = ("character", "object", "cursed item", "torch")

# The order of resolution for combat, one step after the other.
COMBAT_STEPS = (
    ("attacker", "decide"),     # items (including 0 AP items), optional abilities...
    ("defender", "decide"),
    ("attacker", "lay card"),   # face down
    ("defender", "lay card"),   # face down
    ("both", "reveal"),         # simultaneously; a winner is determined
)
CARD_STEPS = tuple(step for step in COMBAT_STEPS if step[1] == "lay card")

# Item users the clarifications name: the Fireball Wand "is restricted to the Wizard. It is not a Scroll,
# and may not be used by other Magic-Users" (so a Scroll is what any Magic-User may use).
WIZARD_ONLY_ITEMS = ("Fireball Wand",)
MAGIC_USER_ITEMS = ("Scroll",)


# --- combat --------------------------------------------------------------------------------------------

ItemKind = Literal["weapon", "armor", "shield", "potion"]


@dataclass(frozen=True)
class Item:
    """A combat item: `bonus` is added to its carrier's total when the item works in that role.

    `kind` decides the role: weapons work only when attacking, armour and shields only when defending,
    a potion (a 0 AP item usable at any time) in either. `slays` names a character the item kills outright
    when it works (the Dragon Slayer's special ability).
    """
    name: str
    kind: ItemKind
    bonus: int = 0
    slays: str = ""


# The one item whose numbers the clarifications quote.
DRAGON_SLAYER = Item("Dragon Slayer", "weapon", DRAGON_SLAYER_BONUS, slays="Dragon")
KNOWN_ITEMS = {DRAGON_SLAYER.name: DRAGON_SLAYER}

_WORKS_WHEN = {"weapon": "attacker", "armor": "defender", "shield": "defender", "potion": None}


@dataclass(frozen=True)
class Fighter:
    """A character in a combat: `strength` is the combat value printed on its healthy side."""
    name: str
    strength: int
    wounded: bool = False
    items: tuple[Item, ...] = ()


@dataclass(frozen=True)
class CombatResult:
    attack_total: int
    defence_total: int
    winner: Literal["attacker", "defender", "tie"]
    slain: tuple[str, ...] = ()          # characters killed outright by an item's special ability
    unused_items: tuple[str, ...] = ()   # items that gave nothing in this role


def _item(raw) -> Item:
    if isinstance(raw, Item):
        return raw
    if isinstance(raw, str):
        if raw not in KNOWN_ITEMS:
            raise ValueError(f"unknown item {raw!r}: give its name, kind and bonus (known: {', '.join(KNOWN_ITEMS)})")
        return KNOWN_ITEMS[raw]
    if raw.get("kind") not in _WORKS_WHEN:
        raise ValueError(f"item {raw.get('name')!r}: kind must be one of {', '.join(_WORKS_WHEN)}")
    return Item(raw["name"], raw["kind"], int(raw.get("bonus", 0)), raw.get("slays", ""))


def _fighter(raw) -> Fighter:
    if isinstance(raw, Fighter):
        return raw
    fighter = Fighter(raw["name"], int(raw["strength"]), bool(raw.get("wounded", False)),
                      tuple(_item(i) for i in raw.get("items", ())))
    if fighter.strength < 0:
        raise ValueError(f"{fighter.name}: a printed strength cannot be negative")
    return fighter


def base_combat_value(fighter: Fighter | dict) -> int:
    """The printed strength of a healthy character; 0 for a wounded one.

    "All wounded characters have a base combat value of 0" (Token Characters), which is why a wounded
    token character can simply be turned face-down.
    """
    fighter = _fighter(fighter)
    return 0 if fighter.wounded else fighter.strength


def item_works(item: Item | str | dict, role: Literal["attacker", "defender"]) -> bool:
    """Whether an item gives its bonus and special effects to a character fighting in `role`.

    Weapons work "while attacking only", for all their effects; armour and shields are "useful only when
    defending, never when attacking" and, being continuous, protect wounded characters too. A potion
    (e.g. the Potion of Strength, a 0 AP item usable "at any time") works in either role.
    """
    if role not in ("attacker", "defender"):
        raise ValueError(f"role must be attacker or defender, not {role!r}")
    needed = _WORKS_WHEN[_item(item).kind]
    return needed is None or needed == role


def _side_total(fighters: tuple[Fighter, ...], role: str, opponents: tuple[Fighter, ...]):
    total, slain, unused = 0, [], []
    names = {f.name for f in opponents}
    for fighter in fighters:
        total += base_combat_value(fighter)
        for item in fighter.items:
            if not item_works(item, role):
                unused.append(item.name)
                continue
            total += item.bonus
            if item.slays in names:
                slain.append(item.slays)
    return total, slain, unused


def combat(attackers: list, defenders: list, attacker_card: int, defender_card: int) -> CombatResult:
    """Totals and winner of a combat: each side adds its characters' base values, working items and card.

    `attackers` and `defenders` are Fighters or dicts `{name, strength, wounded?, items?}`, items being a
    known item's name ("Dragon Slayer") or `{name, kind, bonus, slays?}`. The higher total wins; equal
    totals are reported as "tie" (what a tie or a loss does to the characters is not in the clarifications).
    An attacking Dragon Slayer facing a Dragon kills it outright ("slain"); when defending it does nothing.
    """
    attack, defence = tuple(map(_fighter, attackers)), tuple(map(_fighter, defenders))
    if not attack or not defence:
        raise ValueError("a combat needs at least one attacker and one defender")
    for card in (attacker_card, defender_card):
        if card < 0:
            raise ValueError(f"a combat card cannot be worth {card}")
    attack_total, slain, unused_a = _side_total(attack, "attacker", defence)
    defence_total, _, unused_d = _side_total(defence, "defender", attack)
    attack_total += attacker_card
    defence_total += defender_card
    winner = "attacker" if attack_total > defence_total else "defender" if defence_total > attack_total else "tie"
    return CombatResult(attack_total, defence_total, winner, tuple(slain), tuple(unused_a + unused_d))


def combat_order(steps: list, card_laying_overridden: bool = False) -> dict:
    """Check a combat's sequence of `[who, what]` steps against the order of resolution.

    The attacker makes and declares all decisions (items, 0 AP items, optional abilities), then the
    defender does; then the attacker lays a card face-down, then the defender; finally both are revealed
    at once. A player may declare several decisions in their step, or none. When an ability or item (the
    Weapon Master, the Scroll of Confusion) overrides the card-laying step, the card steps may be missing.
    Returns `{"legal": bool, "problem": str}` naming the first step out of order.
    """
    position = -1
    seen = []
    for step in map(tuple, steps):
        if step not in COMBAT_STEPS:
            return {"legal": False, "problem": f"{list(step)} is not a step of combat"}
        index = COMBAT_STEPS.index(step)
        if index < position:
            return {"legal": False, "problem": f"{list(step)} comes after {list(COMBAT_STEPS[position])}"}
        if step in seen and step[1] != "decide":
            return {"legal": False, "problem": f"{list(step)} happens only once"}
        position = index
        seen.append(step)
    required = [COMBAT_STEPS[-1]] + ([] if card_laying_overridden else list(CARD_STEPS))
    missing = [list(s) for s in required if s not in seen]
    if missing:
        return {"legal": False, "problem": f"missing {missing}"}
    return {"legal": True, "problem": ""}


# --- revealing a room ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Piece:
    """A piece to place in a revealed room; `owner` is the player whose piece it is."""
    name: str
    kind: Literal["character", "object", "cursed item", "torch"]
    owner: str


def placer(piece: Piece | dict, revealer: str, opponent: str) -> str:
    """Who places `piece` when `revealer` reveals a room.

    The revealer places ALL characters and the opponent's Objects; the opponent places the revealer's
    Objects. Exceptions: players always place their own Cursed Items; the revealer always places Torches.
    """
    piece = piece if isinstance(piece, Piece) else Piece(**piece)
    if piece.kind not in PIECE_KINDS:
        raise ValueError(f"{piece.name}: kind must be one of {', '.join(PIECE_KINDS)}")
    if piece.owner not in (revealer, opponent):
        raise ValueError(f"{piece.name}: owner {piece.owner!r} is neither {revealer!r} nor {opponent!r}")
    if piece.kind in ("character", "torch"):
        return revealer
    if piece.kind == "cursed item":
        return piece.owner
    return opponent if piece.owner == revealer else revealer


def reveal_room(revealer: str, opponent: str, pieces: list) -> list[dict]:
    """The placement order for a revealed room: `[{"player", "places": [names]}]`, revealer first.

    "Even with the exceptions, the order remains the same - the player who revealed the room places
    everything they are permitted to place first, and then their opponent places the rest."
    """
    if revealer == opponent:
        raise ValueError("the revealer and the opponent must be different players")
    steps = {revealer: [], opponent: []}
    for raw in pieces:
        piece = raw if isinstance(raw, Piece) else Piece(**raw)
        steps[placer(piece, revealer, opponent)].append(piece.name)
    return [{"player": player, "places": steps[player]} for player in (revealer, opponent) if steps[player]]


# --- the board: adjacency, the rope, the small bridge ----------------------------------------------------

def adjacent(a: list[int], b: list[int], diagonal_allowed: bool = False) -> bool:
    """Whether two squares are adjacent ("in contact with" means the same).

    "No Action, movement or shot can be performed diagonally": only squares sharing a side are adjacent.
    `diagonal_allowed` is the one promo character the clarifications exempt without naming it.
    """
    dx, dy = abs(a[0] - b[0]), abs(a[1] - b[1])
    return (dx, dy) in ((0, 1), (1, 0)) or (diagonal_allowed and dx == dy == 1)


def in_line(a: list[int], b: list[int]) -> bool:
    """Whether a shot from `a` can be aimed at `b`: along a row or a column, never diagonally."""
    return tuple(a) != tuple(b) and (a[0] == b[0] or a[1] == b[1])


@dataclass(frozen=True)
class Square:
    """What the rope cares about in a square: walls, obstacles (and what disarms them), who stands there."""
    pos: tuple[int, int]
    wall: bool = False
    obstacle: bool = False
    disarmed_by: str = ""                 # one of DISARMERS, or "" when not disarmed
    occupant: Literal["", "friend", "enemy"] = ""


def _square(raw) -> Square:
    if isinstance(raw, Square):
        return raw
    return Square(**{**raw, "pos": tuple(raw["pos"])})


def rope_anchor_problem(square: Square | dict) -> str:
    """Why a square cannot anchor a rope ("" when it can).

    Rule of thumb: a valid anchor is a square safe for the rope carrier to move through. Exceptions: an
    enemy character there does not spoil it, and an obstacle disarmed by another rope, your Thief or a
    shield is valid too.
    """
    square = _square(square)
    if square.wall:
        return "a wall"
    if square.obstacle and square.disarmed_by not in DISARMERS:
        return "an obstacle" + (f" ({square.disarmed_by} does not disarm it)" if square.disarmed_by else "")
    return ""


def rope_crossing(left: Square | dict, obstacle: Square | dict, anchors: list) -> dict:
    """Whether a rope lets a character cross `obstacle`, having left square `left` to enter it.

    The rope needs two valid anchor squares next to the obstacle (no diagonals), one of them `left`.
    Returns `{"valid": bool, "problems": [str]}`.
    """
    left, obstacle = _square(left), _square(obstacle)
    anchors = [_square(a) for a in anchors]
    problems = []
    if not obstacle.obstacle:
        problems.append(f"{list(obstacle.pos)} is not an obstacle square")
    if len({a.pos for a in anchors}) != 2:
        problems.append("the rope needs two different anchor squares")
    if left.pos not in {a.pos for a in anchors}:
        problems.append(f"the square left, {list(left.pos)}, must be one of the anchors")
    for anchor in anchors:
        if not adjacent(anchor.pos, obstacle.pos):
            problems.append(f"anchor {list(anchor.pos)} is not adjacent to the obstacle")
        why = rope_anchor_problem(anchor)
        if why:
            problems.append(f"anchor {list(anchor.pos)} is {why}")
    return {"valid": not problems, "problems": problems}


@dataclass(frozen=True)
class BridgeResult:
    base_strength: int      # printed on the token: what the bridge weighs
    combat_strength: int    # with bonuses: what the bridge ignores
    may_move_onto: bool     # of its own movement
    breaks: bool            # the bridge breaks and the character falls through


def small_bridge(printed_strength: int, strength_bonus: int = 0, pushed_by_ring: bool = False) -> BridgeResult:
    """What a small bridge does with a character of base strength `printed_strength`.

    Only the "number printed on the character token" counts: a sword, a Potion of Strength or a General
    (`strength_bonus`) does not. A character of base strength four or more cannot move onto the bridge,
    but the Ring of Repulsion can push it there, and then the bridge breaks and it falls through.
    """
    if printed_strength < 0:
        raise ValueError("a printed strength cannot be negative")
    heavy = printed_strength >= SMALL_BRIDGE_BREAKING_STRENGTH
    return BridgeResult(printed_strength, printed_strength + strength_bonus, not heavy, heavy and pushed_by_ring)


# --- actions and items ---------------------------------------------------------------------------------

def action_points(steps: list, zero_ap_items: dict | None = None) -> dict:
    """Action Points a sequence of `[character, what]` steps costs, and how they group into actions.

    `what` is "move" (one square), a 0 AP item's name, or any other action (1 AP each). Consecutive moves
    of one character are one action. A 0 AP item used "as though it were an action" (the Torch) is an
    action costing no AP, so by the First Golden Rule the character cannot continue moving afterwards
    without another AP; a free 0 AP item (the Potion of Strength) may be used mid-action, interrupts
    nothing and is listed apart. `zero_ap_items` maps item names to "free" or "action" (default: the two
    the clarifications name). Movement allowances are not checked (the clarifications give none).
    Returns `{"action_points": int, "actions": [[character, [what...]]], "free_items": [[character, item]]}`.
    """
    categories = ZERO_AP_ITEMS if zero_ap_items is None else zero_ap_items
    actions: list[list] = []
    free: list[list] = []
    spent = 0
    open_move = None  # the move action that the next move of the same character continues
    for character, what in steps:
        category = categories.get(what)
        if category not in (None, FREE, AS_ACTION):
            raise ValueError(f"{what}: a 0 AP item is {FREE!r} or {AS_ACTION!r}, not {category!r}")
        if category == FREE:
            free.append([character, what])
            continue
        if what == "move" and open_move is not None and open_move[0] == character:
            open_move[1].append(what)
            continue
        action = [character, [what]]
        actions.append(action)
        spent += 0 if category == AS_ACTION else 1
        open_move = action if what == "move" else None
    return {"action_points": spent, "actions": actions, "free_items": free}


def may_use_item(item: str, character: str, magic_user: bool) -> bool:
    """Whether `character` may use `item`: the Fireball Wand only by the Wizard, a Scroll by any Magic-User.

    Only these two are ruled on; any other item raises ValueError rather than guessing.
    """
    if item in WIZARD_ONLY_ITEMS:
        return character == "Wizard"
    if item in MAGIC_USER_ITEMS:
        return magic_user
    raise ValueError(f"the clarifications do not say who may use {item!r}")


def may_kill_own_character(means: str, character: str = "", undead: bool = False,
                           on_trap_before_trigger: bool = False) -> bool:
    """Whether a player may kill their own character this way.

    Falling Rocks are the only terrain that permits suicide by itself. The other permitted ways: a Remote
    Trap, if the character was on the trap before it was triggered; the Fire Elemental wandering into the
    water; your own undead carried (wounded) into the Sacred Tomb or walked into the Holy Cross. Anything
    else is refused.
    """
    if means == SUICIDE_TERRAIN:
        return True
    if means == "Remote Trap":
        return on_trap_before_trigger
    if means == "Water":
        return character == "Fire Elemental"
    if means in ("Sacred Tomb", "Holy Cross"):
        return undead
    return False


# --- scoring -------------------------------------------------------------------------------------------

def death_points(controller: str, players: list[str], killer: str = "") -> dict[str, int]:
    """Victory Points for a character's death, by player.

    The point goes to the opponent of the player who normally controls the character, whoever made it
    die: in a 2-player game always the other player. In a 3/4-player game a character killed by an
    opponent scores for that opponent, and a suicide (`killer` is the controller, or "" for the character's
    own doing) scores for all of the controller's opponents.
    """
    if controller not in players or len(set(players)) != len(players) or not 2 <= len(players) <= 4:
        raise ValueError(f"{controller!r} must be one of 2 to 4 different players {players}")
    opponents = [p for p in players if p != controller]
    if killer and killer not in players:
        raise ValueError(f"killer {killer!r} is not a player")
    scorers = opponents if len(opponents) == 1 or killer in ("", controller) else [killer]
    return {player: VP_PER_DEATH for player in scorers}


def tokens_behind_lines(players: list[str], events: list[dict]) -> dict[str, list[str]]:
    """Tournament play: which tokens lie between each player's starting line and the end of the table.

    Events are `{"event": "escape"|"death"|"treasure out", "player": ..., "token": ...}`; a death also
    names the character's `controller`. A player's own escaping characters and the treasure they get out
    go behind their line; a dead character goes behind the line of whoever scores its death. When a suicide
    in a 3/4-player game scores for several opponents, where its one token goes is not ruled: ValueError.
    """
    lines: dict[str, list[str]] = {p: [] for p in players}
    for event in events:
        kind, player = event["event"], event["player"]
        if player not in lines:
            raise ValueError(f"{player!r} is not a player")
        if kind == "escape":
            lines[player].append(event["token"])
        elif kind == "treasure out":
            lines[player].append("Treasure")
        elif kind == "death":
            scorers = list(death_points(event["controller"], players, player))
            if len(scorers) != 1:
                raise ValueError(f"{event['token']}: the death scores for {scorers}; its token's place is not ruled")
            lines[scorers[0]].append(event["token"])
        else:
            raise ValueError(f"unknown event {kind!r}")
    return lines


def may_summon_zombie(zombies_in_maze: int, zombie_tokens_behind_lines: int) -> bool:
    """Whether another Zombie may be summoned: no "fourth Zombie over the course of a game".

    Dead (or escaped) Zombies count: their tokens behind the starting lines are how the table keeps track.
    """
    if zombies_in_maze < 0 or zombie_tokens_behind_lines < 0:
        raise ValueError("Zombie counts cannot be negative")
    return zombies_in_maze + zombie_tokens_behind_lines < ZOMBIES_PER_GAME


# --- calculators for judges ----------------------------------------------------------------------------

# The base game's combat cards run from 0 to 6 (the rulebook's, not the clarifications').
COMBAT_CARD_MAX = 6
# The calculators' other bounds, the game's own with a margin. A player's team is 8 characters, so no side of
# a combat has more (16 leaves room for allied teams); printed strengths are single figures; an item's bonus
# is a few points and a side carries one weapon and one armour or shield per character.
MAX_FIGHTERS = 16
MAX_STRENGTH = 20
MAX_BONUS = 50
# A room is 5 by 5 squares, and each player's 8 characters and few Objects are dealt over the maze's rooms:
# 25 of one kind of piece is more than a room ever has to place.
ROOM_SQUARES = 25
# A square's column and row: the largest (four-player) maze with its starting lines is under 20 squares a side.
MAX_COORDINATE = 30
# Steps of one turn: a few Action Points, each move one square at a character's movement of a few squares,
# and its 0 AP items; a step names a character and what it does.
MAX_STEPS = 100
STEP_LENGTH = 60
# What a step of a turn can be: a basic action (1 AP), or a 0 AP item; the forms judges type are aliases.
ACTIONS = ("move", "fight", "reveal a room", "rotate a room", "use a special ability", "use an object")
STEP_NAMES = {**{a: a for a in ACTIONS}, "attack": "fight", "combat": "fight", **{i: i for i in ZERO_AP_ITEMS}}
DT = "dungeon-twister/clarifications/"


def _flags(flags: list[bool], count: int, side: str) -> list[bool]:
    if flags and len(flags) != count:
        raise CalcError(f"parameter '{side}_wounded': one true or false per {side} ({count}), not {len(flags)}",
                        f"{side}_wounded")
    return list(flags) or [False] * count


def _card(side: str) -> Param:
    return Param(f"value of the {side}'s combat card", min=0, max=COMBAT_CARD_MAX)


def _strengths(side: str) -> Param:
    return Param(f"printed strength of each {side} character", min=0, max=MAX_STRENGTH, count=(1, MAX_FIGHTERS))


def _wounded(side: str) -> Param:
    return Param(f"for each {side}, whether it is wounded (same order)", count=(0, MAX_FIGHTERS))


def _bonus(items: str) -> Param:
    return Param(f"total bonus of {items}", min=0, max=MAX_BONUS)


def calc_combat(
    attacker_strengths: Annotated[list[int], _strengths("attacking")],
    defender_strengths: Annotated[list[int], _strengths("defending")],
    attacker_card: Annotated[int, _card("attacker")],
    defender_card: Annotated[int, _card("defender")],
    attacker_wounded: Annotated[list[bool], _wounded("attacker")] = (),
    defender_wounded: Annotated[list[bool], _wounded("defender")] = (),
    attacker_weapon_bonus: Annotated[int, _bonus("the attackers' weapons")] = 0,
    attacker_protection_bonus: Annotated[int, _bonus("the attackers' armour and shields")] = 0,
    defender_weapon_bonus: Annotated[int, _bonus("the defenders' weapons")] = 0,
    defender_protection_bonus: Annotated[int, _bonus("the defenders' armour and shields")] = 0,
    dragon_slayer: Annotated[bool, Param("the attackers carry the Dragon Slayer (+4)")] = False,
    defender_is_dragon: Annotated[bool, Param("the (first) defender is the Dragon")] = False,
) -> dict:
    """Combat totals and winner: weapons count only attacking, armour and shields only defending, wounded at 0."""
    def side(name, strengths, wounded, items):
        flags = _flags(wounded, len(strengths), name)
        dragon = name == "defender" and defender_is_dragon
        # Bonuses are side totals, so they ride on the side's first character.
        return [{"name": "Dragon" if dragon and i == 0 else f"{name} {i + 1}", "strength": s, "wounded": w,
                 "items": [] if i else [item for item in items if item.bonus or item.slays]}
                for i, (s, w) in enumerate(zip(strengths, flags))]

    def gear(name, weapon, protection):
        return [Item(f"{name}s' weapons", "weapon", weapon), Item(f"{name}s' armour and shields", "armor", protection)]

    result = combat(side("attacker", attacker_strengths, attacker_wounded,
                         gear("attacker", attacker_weapon_bonus, attacker_protection_bonus)
                         + ([DRAGON_SLAYER] if dragon_slayer else [])),
                    side("defender", defender_strengths, defender_wounded,
                         gear("defender", defender_weapon_bonus, defender_protection_bonus)),
                    attacker_card, defender_card)
    return {"attack_total": result.attack_total, "defence_total": result.defence_total, "winner": result.winner,
            "dragon_slain": "Dragon" in result.slain, "ignored": list(result.unused_items)}


def _say_combat(inputs: dict, result: dict) -> str:
    score = f"{result['attack_total']} to {result['defence_total']}"
    said = (f"The {result['winner']} wins, {score}" if result["winner"] != "tie"
            else f"A tie, {score} (what a tie does is not in the clarifications)")
    notes = []
    if result["dragon_slain"]:
        notes.append("the Dragon Slayer kills the Dragon outright")
    if result["ignored"]:
        notes.append(f"the {' and the '.join(result['ignored'])} give nothing here (weapons count only when "
                     "attacking, armour and shields only when defending)")
    if any(inputs["attacker_wounded"]) or any(inputs["defender_wounded"]):
        notes.append("wounded characters count 0")
    return said + (": " + "; ".join(notes) if notes else "") + "."


def calc_bridge(
    strength: Annotated[int, Param("strength printed on the character token", min=0, max=MAX_STRENGTH)],
    bonus: Annotated[int, Param("strength bonuses (sword, potion, General...): ignored by the bridge", min=0,
                                max=MAX_BONUS)] = 0,
    pushed_by_ring: Annotated[bool, Param("pushed onto the bridge by the Ring of Repulsion")] = False,
) -> dict:
    """Small bridge: may the character move onto it, and does it break (printed base strength 4 or more)?"""
    return asdict(small_bridge(strength, bonus, pushed_by_ring))


def _say_bridge(inputs: dict, result: dict) -> str:
    who = f"a strength-{inputs['strength']} character"
    bonuses = " (bonuses don't count)" if inputs["bonus"] else ""
    if result["breaks"]:
        return (f"The bridge breaks: pushed onto it by the Ring of Repulsion, {who} falls through (printed strength "
                f"{SMALL_BRIDGE_BREAKING_STRENGTH} or more){bonuses}.")
    if result["may_move_onto"]:
        return f"The bridge holds: {who} may cross; only the printed strength counts{bonuses}."
    return (f"{who[0].upper()}{who[1:]} may not move onto the small bridge: its printed strength is "
            f"{SMALL_BRIDGE_BREAKING_STRENGTH} or more{bonuses}; only the Ring of Repulsion can push it there, and "
            "then the bridge breaks.")


def calc_death(
    players: Annotated[int, Param("how many players are in the game", min=2, max=4)],
    controller: Annotated[int, Param("the player (1 to 4) who normally controls the dead character", min=1,
                                     max=4)] = 1,
    killer: Annotated[int, Param("the player (1 to 4) who caused the death; 0, or the controller, for the "
                                 "character's own doing", min=0, max=4)] = 0,
) -> dict:
    """Who scores the Victory Point for a character's death (all opponents on a 3/4-player suicide)."""
    for name, number in (("controller", controller), ("killer", killer)):
        if number > players:
            raise CalcError(f"parameter {name!r}: there is no player {number} in a {players}-player game", name)
    names = [f"player {n}" for n in range(1, players + 1)]
    return {"points": death_points(names[controller - 1], names, names[killer - 1] if killer else "")}


def _say_death(inputs: dict, result: dict) -> str:
    scorers = list(result["points"])
    who = scorers[0].capitalize() if len(scorers) == 1 else "Players " + and_list([s.split()[1] for s in scorers])
    scores = "scores the Victory Point" if len(scorers) == 1 else "each score a Victory Point"
    if inputs["players"] == 2:
        why = "in a 2-player game it always goes to the controller's opponent, whoever caused the death"
    elif len(scorers) > 1:
        why = "a suicide in a 3- or 4-player game scores for all of the controller's opponents"
    else:
        why = "the opponent who killed the character scores"
    return f"{who} {scores}: {why}."


_PIECES = {  # reveal's count parameters: (kind, whose piece, singular, plural, named with its owner)
    "characters": ("character", "revealer", "character", "characters", False),
    "revealer_objects": ("object", "revealer", "Object", "Objects", True),
    "opponent_objects": ("object", "opponent", "Object", "Objects", True),
    "revealer_cursed": ("cursed item", "revealer", "Cursed Item", "Cursed Items", True),
    "opponent_cursed": ("cursed item", "opponent", "Cursed Item", "Cursed Items", True),
    "torches": ("torch", "revealer", "Torch", "Torches", False),
}


def _piece_words(param: str, n: int) -> str:
    _, owner, singular, plural, owned = _PIECES[param]
    pieces = f"{n} {singular if n == 1 else plural}"
    return f"the {owner}'s {pieces}" if owned else pieces


def _pieces(help_text: str) -> Param:
    return Param(help_text, min=0, max=ROOM_SQUARES)


def calc_reveal(
    characters: Annotated[int, _pieces("characters in the room (both players')")] = 0,
    revealer_objects: Annotated[int, _pieces("the revealer's ordinary Objects")] = 0,
    opponent_objects: Annotated[int, _pieces("the opponent's ordinary Objects")] = 0,
    revealer_cursed: Annotated[int, _pieces("the revealer's Cursed Items")] = 0,
    opponent_cursed: Annotated[int, _pieces("the opponent's Cursed Items")] = 0,
    torches: Annotated[int, _pieces("Torches in the room")] = 0,
) -> dict:
    """Room reveal: who places which piece, revealer first, then the opponent."""
    counts = {"characters": characters, "revealer_objects": revealer_objects, "opponent_objects": opponent_objects,
              "revealer_cursed": revealer_cursed, "opponent_cursed": opponent_cursed, "torches": torches}
    pieces = [Piece(param, kind, owner) for param, (kind, owner, *_) in _PIECES.items() for _ in range(counts[param])]
    order = reveal_room("revealer", "opponent", pieces)
    return {"order": [{"player": step["player"],
                       "places": {param: step["places"].count(param) for param in dict.fromkeys(step["places"])}}
                      for step in order]}


def _say_reveal(inputs: dict, result: dict) -> str:
    if not result["order"]:
        return "Nothing to place: the room is empty."
    steps = [f"the {step['player']} places " + and_list([_piece_words(param, n) for param, n in step["places"].items()])
             for step in result["order"]]
    said = "; then ".join(steps)
    return f"{said[0].upper()}{said[1:]} (the revealer places everything he may first)."


def calc_adjacency(
    square_a: Annotated[list[int], Param("column,row of the first square", min=1, max=MAX_COORDINATE, count=(2, 2))],
    square_b: Annotated[list[int], Param("column,row of the second square", min=1, max=MAX_COORDINATE,
                                         count=(2, 2))],
    diagonal_promo: Annotated[bool, Param("the one promo character allowed diagonal effects")] = False,
) -> dict:
    """Are two squares adjacent (in contact), and can a shot go from one to the other? No diagonals."""
    return {"adjacent": adjacent(square_a, square_b, diagonal_promo), "shot_possible": in_line(square_a, square_b)}


def _say_adjacency(inputs: dict, result: dict) -> str:
    contact = ("The squares are adjacent (in contact)" if result["adjacent"]
               else "The squares are not adjacent (not in contact)")
    shot = ("a shot can go from one to the other, along their row or column" if result["shot_possible"]
            else "no shot goes from one to the other: shots, like actions and movement, never go diagonally")
    return f"{contact}; {shot}."


def _step(text: str) -> list[str]:
    character, sep, what = text.partition(":")
    if not sep or not character.strip() or not what.strip():
        raise CalcError(f"parameter 'steps': {text!r} is not character:what, e.g. Troll:move", "steps")
    try:
        return [character.strip(), resolve(what, STEP_NAMES, "step")]
    except UnknownName as exc:
        raise CalcError(f"parameter 'steps': {exc}", "steps") from None


def calc_action_points(
    steps: Annotated[list[str], Param("character:what for each step, what being an action ("
                                      + ", ".join(ACTIONS) + ") or a 0 AP item (" + ", ".join(ZERO_AP_ITEMS)
                                      + "), e.g. Wizard:move,Wizard:Torch,Wizard:move", count=(1, MAX_STEPS),
                                      length=STEP_LENGTH)],
) -> dict:
    """Action Points spent by a sequence of steps (Torch: an action at 0 AP; Potion of Strength: free)."""
    return action_points([_step(step) for step in steps])


def _say_action_points(inputs: dict, result: dict) -> str:
    def said(who: str, whats: list[str]) -> str:
        if whats[0] == "move":
            return f"{who} moves {len(whats)} square{'s' if len(whats) > 1 else ''} (1 AP)"
        if whats[0] in ZERO_AP_ITEMS:
            return f"{who} uses the {whats[0]} as an action (0 AP, and moving on needs another action)"
        return f"{who}: {whats[0]} (1 AP)"
    free = [f"{who}'s {item} is free and interrupts nothing" for who, item in result["free_items"]]
    n = result["action_points"]
    return (f"{n} Action Point{'' if n == 1 else 's'}: "
            + "; ".join([said(who, whats) for who, whats in result["actions"]] + free) + ".")


CALCULATORS = {
    "combat": Calculator(calc_combat, (DT + "weapons-grant-bonus-other-special", DT + "armor-and-shields",
                                       DT + "token-characters"), _say_combat),
    "bridge": Calculator(calc_bridge, (DT + "the-small-bridge",), _say_bridge),
    "death": Calculator(calc_death, (DT + "good-rule-thumb-follow-awarding",), _say_death),
    "reveal": Calculator(calc_reveal, (DT + "revealing-a-room",), _say_reveal),
    "adjacency": Calculator(calc_adjacency, (DT + "game-diagonal-effects-exception-one",), _say_adjacency),
    "action-points": Calculator(calc_action_points, (DT + "0-ap-items",), _say_action_points),
}
