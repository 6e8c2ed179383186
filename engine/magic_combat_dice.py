"""Magic Combat with Dice: Magic combat resolved with a d20 attack roll per attacking creature or band.

The attacker rolls 1d20 + its power (- the resisting blocker's power); the modified total is read on the
source's Attack Table: a natural 1 is a Critical Miss, then Miss, Partial Hit, Hit, Critical Hit. The
source prints the table's names but never the totals of Partial Hit, Hit and Critical Hit, so callers
must supply them as `Thresholds`; the engine only enforces what the source does say (totals below 5 miss).

State is plain: creatures are frozen `Creature`s (or dicts with the same keys), dice are explicit d20
faces, and results are frozen dataclasses.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Annotated, Literal

from engine.calculators import Calculator, Param
from engine.dice import Roller, check_face, fixed, half_down, pool, take

GAME = "magic-combat-dice"  # this module is that game's engine (engine.registry finds it by this)

D20 = 20
NATURAL_CRITICAL_MISS = 1   # "A Natural 1 means that the number on the d20 is a 1" (Critical Miss)
MISS_BELOW = 5              # "any modified number less than 5" is a Miss (Miss)
CONSTRUCTED_SIDEBOARD = 15  # "You can have a 15-card sideboard in Constructed" (Sideboard)
PLAYERS = ("first", "second")
MULLIGAN_CHOICES = ("mulligan", "keep")


class Result(Enum):
    """The rows of the Attack Table, worst first."""
    CRITICAL_MISS = "critical-miss"
    MISS = "miss"
    PARTIAL_HIT = "partial-hit"
    HIT = "hit"
    CRITICAL_HIT = "critical-hit"


@dataclass(frozen=True)
class Thresholds:
    """The lowest modified total of Partial Hit, Hit and Critical Hit on the Attack Table.

    The source never gives these numbers (only that a total below 5 is a Miss, its "<1 - 5" row), so
    there is no default: the caller supplies them and they must rise strictly.
    """
    partial_hit: int
    hit: int
    critical_hit: int

    def __post_init__(self):
        if self.partial_hit < MISS_BELOW:
            raise ValueError(f"a Partial Hit cannot start below {MISS_BELOW}: totals under {MISS_BELOW} are Misses")
        if not self.partial_hit < self.hit < self.critical_hit:
            raise ValueError("thresholds must rise strictly: partial_hit < hit < critical_hit")


@dataclass(frozen=True)
class Creature:
    """A creature in a battle; `toughness` is what it has left (damage does not heal by itself)."""
    name: str
    power: int
    toughness: int
    first_strike: bool = False
    wall: bool = False
    banding: bool = False
    landwalk: bool = False
    regenerates: bool = False   # has regeneration and its controller pays the cost whenever it would die


@dataclass(frozen=True)
class Damage:
    """How much damage a strike deals and to whom: "defender", "attacker" (itself) or "nobody"."""
    damage: int
    to: str


@dataclass(frozen=True)
class Attack:
    """One attack roll read on the Attack Table."""
    roll: int
    total: int
    result: Result
    damage: int
    to: str


@dataclass(frozen=True)
class Strike:
    """One attack or counter strike of a battle.

    `roll` and `total` are 0 and `result` is "automatic" when no die is rolled (a wall's damage);
    `dealt` maps each creature hurt (or "player") to its damage; `allocated_by` names the player who
    split the damage over several creatures ("" when there was nothing to split).
    """
    by: str
    at: str
    roll: int
    total: int
    result: str
    dealt: dict[str, int]
    allocated_by: str = ""


@dataclass(frozen=True)
class Battle:
    """A resolved battle: its mode, every strike in order, toughness left (0: graveyard), player damage."""
    mode: str
    strikes: list[Strike]
    toughness: dict[str, int]
    player_damage: int


@dataclass(frozen=True)
class Healing:
    """End-of-turn healing: the creature's toughness after it and the life each player sacrificed."""
    toughness: int
    controller_pays: int
    opponent_pays: int


def _thresholds(value: Thresholds | dict) -> Thresholds:
    return value if isinstance(value, Thresholds) else Thresholds(**value)


def _creature(value: Creature | dict) -> Creature:
    return value if isinstance(value, Creature) else Creature(**value)


def attack_mode(blocked: bool, landwalk: bool = False) -> str:
    """The attack's mode: undefended when nothing blocks or the attacker landwalks, else resisted."""
    return "resisted" if blocked and not landwalk else "undefended"


def band_legal(banding: list[bool], side: Literal["attacking", "defending"]) -> bool:
    """Whether creatures with these banding flags may form a band (Banding).

    An attacking band needs banding on every creature but one; a defending band on only one of them.
    """
    if len(banding) < 2:
        raise ValueError("a band needs at least two creatures")
    if side == "attacking":
        return banding.count(False) <= 1
    if side == "defending":
        return any(banding)
    raise ValueError(f"side must be 'attacking' or 'defending', not {side!r}")


def band_landwalks(landwalk: list[bool]) -> bool:
    """An attacking band is unblockable by landwalk only if every member is: one blockable member exposes it."""
    return all(landwalk)


def defense_power(blockers: list[int], banded: bool = False) -> int:
    """The power subtracted from an attack roll by its blockers.

    One roll is made against all blockers: their average power rounded down, or, for a defending band
    (which blocks as one creature), the sum of its powers. No blockers subtract nothing.
    """
    if not blockers:
        return 0
    if banded:
        return sum(blockers)
    return sum(blockers) // len(blockers)   # floor division: "rounded down", also for negative powers


def attack_total(roll: int, power: int, defense: int = 0, after_roll: int = 0) -> int:
    """The modified total: d20 + power before the roll + power changed after it - resisting power.

    Power changed after the roll still counts (Special Note: a pump can turn a failed roll into a hit).
    """
    return check_face(roll, D20) + power + after_roll - defense


def classify(roll: int, total: int, thresholds: Thresholds | dict) -> Result:
    """The Attack Table row: a natural 1 is always a Critical Miss, whatever the modified total."""
    table = _thresholds(thresholds)
    if check_face(roll, D20) == NATURAL_CRITICAL_MISS:
        return Result.CRITICAL_MISS
    if total < table.partial_hit:
        return Result.MISS
    if total < table.hit:
        return Result.PARTIAL_HIT
    if total < table.critical_hit:
        return Result.HIT
    return Result.CRITICAL_HIT


def damage(power: int, result: Result | str, after_roll: int = 0) -> Damage:
    """Damage of an attack from its result, `power` before the roll and `after_roll` changes made since.

    Partial Hit: half the power, rounded down, but a power-1 creature still deals 1. Hit: full power.
    Critical Hit: double the pre-roll power; post-roll changes are added undoubled. Critical Miss: the
    attacker takes half its own (current) power, rounded down. Negative power deals no damage.
    """
    result = Result(result)
    current = power + after_roll
    if result is Result.CRITICAL_MISS:
        return Damage(max(0, half_down(current)), "attacker")
    if result is Result.MISS:
        return Damage(0, "nobody")
    if result is Result.PARTIAL_HIT:
        amount = 1 if current == 1 else half_down(current)
    elif result is Result.HIT:
        amount = current
    else:
        amount = 2 * power + after_roll
    return Damage(max(0, amount), "defender")


def attack(roll: int, power: int, thresholds: Thresholds | dict, blockers: list[int] = (), banded: bool = False,
           after_roll: int = 0) -> Attack:
    """One attack roll: undefended without `blockers`, else resisted by their average (or band's summed) power."""
    total = attack_total(roll, power, defense_power(list(blockers), banded), after_roll)
    result = classify(roll, total, thresholds)
    dealt = damage(power, result, after_roll)
    return Attack(roll, total, result, dealt.damage, dealt.to)


def allocator(target: Literal["blockers", "attacking-band", "defending-band"]) -> str:
    """Who splits damage landing on several creatures: the defending player only for a defending band."""
    if target not in ("blockers", "attacking-band", "defending-band"):
        raise ValueError(f"unknown damage target {target!r}")
    return "defending player" if target == "defending-band" else "attacking player"


@dataclass
class _Fight:
    """The running state of one battle (internal; `battle` returns a frozen `Battle`)."""
    roller: Roller
    thresholds: Thresholds
    toughness: dict[str, int]
    allocations: list[list[int]]
    strikes: list[Strike] = field(default_factory=list)
    player_damage: int = 0

    def living(self, unit: list[Creature]) -> list[Creature]:
        return [c for c in unit if self.toughness[c.name] > 0]

    def power(self, unit: list[Creature]) -> int:
        # A band's power is the sum of its members' (Banding); only living members still make it up.
        return sum(c.power for c in self.living(unit))

    def hurt(self, unit: list[Creature], amount: int, chooser: str) -> tuple[dict[str, int], str]:
        """Apply `amount` to a unit, split by the next allocation when it has several living creatures."""
        living = self.living(unit)
        if amount <= 0 or not living:
            return {}, ""
        split, by = [amount], ""
        if len(living) > 1:
            if not self.allocations:
                raise ValueError(f"{amount} damage lands on {len(living)} creatures: an allocation is needed")
            split, by = self.allocations.pop(0), chooser
            if len(split) != len(living) or sum(split) != amount or min(split) < 0:
                raise ValueError(f"allocation {split} must split {amount} over {len(living)} living creatures")
        for creature, share in zip(living, split):
            left = self.toughness[creature.name] - share
            # Regeneration: lethal damage leaves the creature at 1 toughness instead (Regeneration).
            self.toughness[creature.name] = 1 if left <= 0 and creature.regenerates else max(0, left)
        return {c.name: share for c, share in zip(living, split) if share}, by

    def strike(self, striker: list[Creature], target: list[Creature] | None, defense: int,
               striker_chooser: str, target_chooser: str, after_roll: int = 0) -> None:
        """Roll one attack of `striker` at `target` (None: the defending player) and deal its damage now."""
        natural = self.roller(D20)
        power = self.power(striker)
        total = attack_total(natural, power, defense, after_roll)
        result = classify(natural, total, self.thresholds)
        dealt = damage(power, result, after_roll)
        if dealt.to == "attacker":
            hurt, by = self.hurt(striker, dealt.damage, striker_chooser)
        elif dealt.to == "defender" and target is None:
            self.player_damage += dealt.damage
            hurt, by = ({"player": dealt.damage} if dealt.damage else {}), ""
        elif dealt.to == "defender":
            hurt, by = self.hurt(target, dealt.damage, target_chooser)
        else:
            hurt, by = {}, ""
        self.strikes.append(Strike(_name(striker), "player" if target is None else _name(target), natural, total,
                                   result.value, hurt, by))

    def counter_strike(self, unit: list[Creature], attackers: list[Creature], attacker_bonus: int) -> None:
        """A defensive counter strike: a resisted attack with the roles swapped; walls deal damage unrolled."""
        if not self.living(unit) or not self.living(attackers):
            return
        if all(c.wall for c in unit):
            hurt, by = self.hurt(attackers, max(0, self.power(unit)), allocator("attacking-band"))
            self.strikes.append(Strike(_name(unit), _name(attackers), 0, 0, "automatic", hurt, by))
            return
        self.strike(unit, attackers, self.power(attackers) + attacker_bonus, allocator("defending-band"),
                    allocator("attacking-band"))


def _name(unit: list[Creature]) -> str:
    return "+".join(c.name for c in unit)


def battle(attackers: list[Creature | dict], thresholds: Thresholds | dict, faces: list[int],
           blockers: list[Creature | dict] = (), defenders_banded: bool = False, after_roll: int = 0,
           allocations: list[list[int]] = ()) -> Battle:
    """Resolve one attacking creature (or attacking band, several `attackers`) against its blockers.

    Order: blockers with first strike counter-strike first (first strike does nothing for attackers);
    then the attacker makes one roll against all blockers, and its damage is dealt at once; then every
    blocker still alive that has not struck makes its own counter strike at full power (a defending band
    strikes once, as one creature). Counter strikes stop once the attacker is dead, and an attacker whose
    blockers are all gone before its roll makes none. Walls counter with their power, unrolled.

    `faces` are the d20s in the order rolled; `after_roll` changes the attacker's power after its roll;
    `allocations` are the splits, in order, of each damage landing on more than one living creature (in
    the order the creatures were listed), chosen by the player `allocator` names. A defending band
    containing a wall or a first-striker is refused: the source does not say how it strikes.
    """
    attacking = [_creature(c) for c in attackers]
    blocking = [_creature(c) for c in blockers]
    names = [c.name for c in attacking + blocking]
    if not attacking:
        raise ValueError("a battle needs an attacker")
    if len(set(names)) != len(names):
        raise ValueError("every creature in a battle needs its own name")
    if len(attacking) > 1 and not band_legal([c.banding for c in attacking], "attacking"):
        raise ValueError("every creature but one in an attacking band must have banding")
    if defenders_banded:
        if not band_legal([c.banding for c in blocking], "defending"):
            raise ValueError("a defending band needs at least one creature with banding")
        if any(c.wall or c.first_strike for c in blocking):
            raise ValueError("the source does not say how a defending band with a wall or first strike strikes")
    fight = _Fight(fixed(faces), _thresholds(thresholds), {c.name: c.toughness for c in attacking + blocking},
                   [list(a) for a in allocations])
    mode = attack_mode(bool(blocking), band_landwalks([c.landwalk for c in attacking]))
    if mode == "undefended":
        fight.strike(attacking, None, 0, allocator("attacking-band"), "", after_roll)
    else:
        units = [blocking] if defenders_banded else [[b] for b in blocking]
        first, later = [u for u in units if u[0].first_strike], [u for u in units if not u[0].first_strike]
        for unit in first:
            fight.counter_strike(unit, attacking, 0)
        resisting = fight.living(blocking)
        # Blockers all gone (a first-striker's own Critical Miss): as in normal Magic the attacker stays
        # blocked, so it has nothing to roll against.
        if fight.living(attacking) and resisting:
            fight.strike(attacking, resisting, defense_power([c.power for c in resisting], defenders_banded),
                         allocator("attacking-band"), allocator("defending-band" if defenders_banded else "blockers"),
                         after_roll)
        for unit in later:
            fight.counter_strike(unit, attacking, after_roll)
    return Battle(mode, fight.strikes, fight.toughness, fight.player_damage)


def heal_at_end_of_turn(toughness: int, legal_toughness: int, heal: bool, prevent: bool = False) -> Healing:
    """End-of-turn healing of a damaged creature, which never heals by itself.

    Its controller may sacrifice life equal to the toughness missing to restore its legal (possibly
    modified) toughness; an opponent may sacrifice the same amount to prevent it. It never heals past its
    legal toughness, and a creature at 0 toughness is already in the graveyard and cannot be healed.
    """
    missing = max(0, legal_toughness - toughness)
    if toughness <= 0 or not heal or not missing:
        return Healing(max(0, toughness), 0, 0)
    if prevent:
        return Healing(toughness, missing, missing)
    return Healing(legal_toughness, missing, 0)


def regenerated_toughness(legal_toughness: int, turns_after: int) -> int:
    """Toughness of a regenerated creature `turns_after` turns on: 1, then +1 a turn up to its maximum."""
    if legal_toughness < 1 or turns_after < 0:
        raise ValueError("legal toughness must be at least 1 and turns_after not negative")
    return min(legal_toughness, 1 + turns_after)


def may_mulligan(player: Literal["first", "second"], decisions: list[str], hand_size: int) -> bool:
    """Whether `player` may mulligan now, given earlier `decisions` ("first:mulligan", "second:keep"...).

    The first player mulligans as often as he likes before the choice passes to the other; a player who
    has kept may not change his mind; nobody can mulligan a hand with no cards left.
    """
    if player not in PLAYERS:
        raise ValueError(f"player must be one of {PLAYERS}")
    kept = {who for who, choice in map(_decision, decisions) if choice == "keep"}
    return hand_size > 0 and not _out_of_turn(player, kept)


def _decision(text: str) -> tuple[str, str]:
    who, _, choice = text.partition(":")
    if who not in PLAYERS or choice not in MULLIGAN_CHOICES:
        raise ValueError(f"a decision is 'first|second:mulligan|keep', not {text!r}")
    return who, choice


def _out_of_turn(player: str, kept: set[str]) -> str:
    """Why `player` may not decide now ("" when he may), given the players who have already kept."""
    if player in kept:
        return f"the {player} player has kept and may not change his mind"
    if player == "second" and "first" not in kept:
        return "the first player decides all his mulligans before the second player"
    return ""


def mulligan_phase(hand_size: int, decisions: list[str]) -> dict[str, int]:
    """Each player's hand after a Paris mulligan phase: every mulligan redraws one card fewer.

    `hand_size` is the opening hand (the source relies on normal Magic for it). Raises ValueError on a
    decision the rules forbid: out of turn, after keeping, or a mulligan with no cards left.
    """
    if hand_size < 0:
        raise ValueError("a hand cannot hold fewer than 0 cards")
    hands, kept = dict.fromkeys(PLAYERS, hand_size), set()
    for text in decisions:
        who, choice = _decision(text)
        refused = _out_of_turn(who, kept)
        if refused:
            raise ValueError(f"{text!r}: {refused}")
        if choice == "keep":
            kept.add(who)
        elif hands[who] == 0:
            raise ValueError(f"{text!r}: the {who} player has no cards left to mulligan")
        else:
            hands[who] -= 1
    return hands


def constructed_sideboard_legal(size: int) -> bool:
    """A Constructed sideboard may hold up to 15 cards."""
    if size < 0:
        raise ValueError("a sideboard cannot hold fewer than 0 cards")
    return size <= CONSTRUCTED_SIDEBOARD


def limited_sideboard(card_pool: list[str], deck: list[str]) -> list[str]:
    """In Limited the sideboard is every card of the pool the deck does not use (sorted)."""
    rest = take(pool(card_pool), deck)
    if rest is None:
        raise ValueError("the deck uses cards that are not in the pool")
    return sorted(rest.elements())


# --- judges' calculators --------------------------------------------------------------------------------

ResultName = Literal["critical-miss", "miss", "partial-hit", "hit", "critical-hit"]
# How each Attack Table result turns power into damage, as the rules word it.
_DAMAGE_RULE = {
    "critical-miss": "the attacker takes half its own current power, rounded down",
    "miss": "no damage",
    "partial-hit": "half the power, rounded down (a power-1 creature still deals 1)",
    "hit": "the full power",
    "critical-hit": "double the power before the roll, plus any change made after it, undoubled",
}


def _dealt(result: str, damage_dealt: int, to: str) -> str:
    article = "An" if result[0] in "aeiou" else "A"
    named = f"{article} {result.replace('-', ' ')}"
    if to == "nobody":
        return f"{named} deals no damage"
    whom = "the attacker itself" if to == "attacker" else "the defender"
    return f"{named} deals {damage_dealt} damage to {whom} ({_DAMAGE_RULE[result]})"


# The calculators' bounds: generous for Magic's creatures (printed powers and toughnesses are single or low
# double figures, and a pump or a shrink moves them by a few), its boards and its hands (an opening hand is
# 7 cards; no hand or board of a 60-card deck reaches 100).
MAX_POWER = 100
MAX_TOUGHNESS = 100
MAX_BLOCKERS = 100
MAX_HAND = 100
# A total is the d20 plus powers: a threshold above any total a creature can reach is never met anyway.
MAX_THRESHOLD = D20 + 2 * MAX_POWER


def _power(help_text: str) -> Param:
    return Param(help_text, min=-MAX_POWER, max=MAX_POWER)


def _threshold(result: str, lowest: int) -> Param:
    return Param(f"lowest total that is a {result} (the source does not print it)", min=lowest, max=MAX_THRESHOLD)


def calc_damage(
    power: Annotated[int, _power("attacking creature's power before the attack roll")],
    result: Annotated[ResultName, Param("the Attack Table result")],
    after_roll: Annotated[int, _power("power added (negative: removed) after the roll; a critical hit does not "
                                      "double it")] = 0,
) -> dict:
    """Damage dealt by an attack of a given result, and whether it hits the defender or the attacker itself."""
    dealt = damage(power, result, after_roll)
    return {"damage": dealt.damage, "to": dealt.to}


def _say_damage(inputs: dict, result: dict) -> str:
    return _dealt(inputs["result"], result["damage"], result["to"]) + "."


def calc_attack(
    roll: Annotated[int, Param("the natural d20 roll", min=1, max=D20)],
    power: Annotated[int, _power("attacking creature's (or band's summed) power before the roll")],
    partial_hit: Annotated[int, _threshold("Partial Hit", MISS_BELOW)],
    hit: Annotated[int, _threshold("Hit", MISS_BELOW + 1)],
    critical_hit: Annotated[int, _threshold("Critical Hit", MISS_BELOW + 2)],
    blockers: Annotated[list[int], Param("powers of the blocking creatures (none: undefended attack)",
                                         min=-MAX_POWER, max=MAX_POWER, count=(0, MAX_BLOCKERS))] = (),
    banded: Annotated[bool, Param("the blockers are a defending band (sum of powers instead of average)")] = False,
    after_roll: Annotated[int, _power("power added (or removed) after the roll")] = 0,
) -> dict:
    """Total, Attack Table result and damage of one attack roll, undefended or resisted."""
    done = attack(roll, power, Thresholds(partial_hit, hit, critical_hit), blockers, banded, after_roll)
    return {"total": done.total, "result": done.result.value, "damage": done.damage, "to": done.to}


def _say_attack(inputs: dict, result: dict) -> str:
    dealt = _dealt(result["result"], result["damage"], result["to"])
    if inputs["roll"] == NATURAL_CRITICAL_MISS:
        return f"A natural 1 is always a critical miss, whatever the total: {dealt[0].lower()}{dealt[1:]}."
    defence = defense_power(list(inputs["blockers"]), inputs["banded"])
    blockers = "the band's summed" if inputs["banded"] else "the blockers' average"
    resisted = f" - {defence} for {blockers} power" if inputs["blockers"] else ""
    after = f" {inputs['after_roll']:+d} after the roll" if inputs["after_roll"] else ""
    return (f"The total is {result['total']} (roll {inputs['roll']} + power {inputs['power']}{after}{resisted}). "
            + dealt + ".")


def calc_heal(
    toughness: Annotated[int, Param("toughness the creature has left", min=0, max=MAX_TOUGHNESS)],
    legal_toughness: Annotated[int, Param("its original or modified toughness", min=1, max=MAX_TOUGHNESS)],
    prevent: Annotated[bool, Param("an opponent sacrifices the same life to prevent the healing")] = False,
) -> dict:
    """Life to sacrifice at end of turn to heal a damaged creature, and its toughness afterwards."""
    if toughness > legal_toughness:
        raise ValueError("a creature never has more toughness left than its legal toughness")
    healed = heal_at_end_of_turn(toughness, legal_toughness, True, prevent)
    return {"toughness": healed.toughness, "controller_pays": healed.controller_pays,
            "opponent_pays": healed.opponent_pays}


def _say_heal(inputs: dict, result: dict) -> str:
    if inputs["toughness"] == 0:
        return "A creature at 0 toughness is already in the graveyard: it cannot be healed."
    if not result["controller_pays"]:
        return "The creature has taken no damage: there is nothing to heal."
    paid = f"Its controller sacrifices {result['controller_pays']} life"
    if result["opponent_pays"]:
        return (f"{paid} to heal it, and the opponent sacrifices {result['opponent_pays']} life to prevent it: "
                f"its toughness stays {result['toughness']}.")
    return f"{paid} to heal it back to toughness {result['toughness']}; damage never heals by itself."


def calc_mulligan(
    hand_size: Annotated[int, Param("cards in the opening hand", min=0, max=MAX_HAND)],
    mulligans: Annotated[int, Param("how many times the player mulligans", min=0, max=MAX_HAND)],
) -> dict:
    """Cards in hand after a number of Paris mulligans (one fewer each time, never below none)."""
    if mulligans > hand_size:
        raise ValueError(f"a {hand_size}-card hand allows 0 to {hand_size} mulligans, not {mulligans}")
    return {"hand": mulligan_phase(hand_size, ["first:mulligan"] * mulligans)["first"]}


def _say_mulligan(inputs: dict, result: dict) -> str:
    if not inputs["mulligans"]:
        return f"Without a mulligan the player keeps {result['hand']} cards."
    times = "once" if inputs["mulligans"] == 1 else f"{inputs['mulligans']} times"
    return (f"After mulliganing {times} the player holds {result['hand']} cards: each Paris mulligan redraws one "
            "card fewer.")


_RESULTS = tuple(f"magic-combat-dice/rules/{name}" for name in ("miss", "partial-hit", "hit", "critical-hit",
                                                               "critical-miss"))
CALCULATORS = {
    "damage": Calculator(calc_damage, (*_RESULTS, "magic-combat-dice/rules/special-note"), _say_damage),
    "attack": Calculator(calc_attack, ("magic-combat-dice/rules/undefended-attack",
                                       "magic-combat-dice/rules/resisted-attack",
                                       "magic-combat-dice/rules/more-than-one-creature-assigned",
                                       "magic-combat-dice/rules/special-considerations/banding",
                                       "magic-combat-dice/rules/special-note", *_RESULTS), _say_attack),
    "heal": Calculator(calc_heal, ("magic-combat-dice/rules/after-battle-occurred-creatures-taken",), _say_heal),
    "mulligan": Calculator(calc_mulligan, ("magic-combat-dice/rules/mulligan-rules",), _say_mulligan),
}
