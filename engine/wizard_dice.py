"""Wizard Dice: recognising spells in a roll of six d6 and resolving a duel round by round.

Static facts (spell patterns, ally types, hit points) are module constants. State is frozen dataclasses
(`Wizard`, `Ally`); functions also accept the same data as plain dicts so scenarios can pass TOML tables.
Dice come in as a `Roller` or as explicit faces; nothing here is random.

The engine models a two-wizard duel (every rule of the source is phrased "your opponent"). Targets are
named from the caster's side: "self", "opponent", "ally-N" (the caster's N-th ally, from 1) and
"opponent-ally-N".
"""
from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Annotated

from engine.calculators import Calculator, Param, and_list
from engine.dice import Roller, check_faces, fixed, pool, take

GAME = "wizard-dice"  # this module is that game's engine (engine.registry finds it by this)

DICE = 6            # "players roll six 6-sided dice"
SIDES = 6
HIT_POINTS = 20     # "a wizard who has 20 Hit Points (or 10 Hit Points for a shorter game!)"
SHORT_HIT_POINTS = 10
HEAL_ABOVE_START = 1  # "may never go more than 1 point above the health he started with"
REROLLS = 2         # roll, set aside and re-roll, set aside from ALL and re-roll again: three rolls in all
CONTINUATION_MAX_USED = 4  # Spell Continuation: "used no more than 4 dice for spells"
CONTINUATION_DICE = 2      # "set-aside up to two of his dice"
ALLY_HEALTH = {"ogre": 2, "troll": 3}  # "Ogres begin with 2, whilst Trolls begin with 3 health"

ATTACK, COUNTER, HEALING, SUMMON = "attack", "counter", "healing", "summon"


@dataclass(frozen=True)
class Part:
    """One piece of a dice pattern: `kind` is "face" (up to `size` dice showing `face`), "kind"
    (`size` of a kind), "straight" (`size` consecutive faces) or "any" (`size` dice of any face)."""
    kind: str
    size: int
    face: int = 0


@dataclass(frozen=True)
class Spell:
    slug: str
    name: str
    type: str                       # ATTACK, COUNTER, HEALING or SUMMON (the list's A, C, H, S)
    parts: tuple[Part, ...]
    damage: int = 0                 # fixed damage; 0 for spells dealing 1 per die or none
    per_die: bool = False           # Magic Missiles and Poison Arrow: 1 damage per die used
    split: bool = False             # "split between up to 2 targets"
    heal: int = 0
    summons: str = ""


def _kind(n: int) -> Part:
    return Part("kind", n)


def _straight(n: int) -> Part:
    return Part("straight", n)


# The List of Basic Spells, in the source's order. Patterns are listed part by part, as the source words
# them ("a pair plus any 1 dice" = pair, then any): declared dice follow the same order.
SPELLS: dict[str, Spell] = {s.slug: s for s in (
    Spell("magic-missiles", "Magic Missiles", ATTACK, (Part("face", 2, 6),), per_die=True, split=True),
    Spell("poison-arrow", "Poison Arrow", ATTACK, (Part("face", 3, 1),), per_die=True),
    Spell("cause-wounds", "Cause Wounds", ATTACK, (_kind(3), _kind(2)), damage=3),
    Spell("paralysis", "Paralysis", ATTACK, (_kind(3),)),
    Spell("lightning-bolt", "Lightning Bolt", ATTACK, (_kind(4),), damage=4, split=True),
    Spell("fireball", "Fireball", ATTACK, (_kind(5),), damage=6),
    Spell("finger-of-death", "Finger Of Death", ATTACK, (_kind(6),)),
    Spell("cure-light-wounds", "Cure Light Wounds", HEALING, (_straight(4),), heal=2),
    Spell("cure-heavy-wounds", "Cure Heavy Wounds", HEALING, (_straight(5),), heal=4),
    Spell("shield", "Shield", COUNTER, (_kind(2), Part("any", 1))),
    Spell("counterspell", "Counterspell", COUNTER, (_straight(3), Part("any", 1))),
    Spell("magic-shell", "Magic Shell", COUNTER, (_straight(3), _kind(2))),
    Spell("magic-mirror", "Magic Mirror", COUNTER, (_kind(2), _straight(4))),
    Spell("summon-ogre", "Summon Ogre", SUMMON, (_kind(2), _kind(2)), summons="ogre"),
    Spell("summon-troll", "Summon Troll", SUMMON, (_kind(2), _kind(2), _kind(2)), summons="troll"),
)}


# --- recognising spells -------------------------------------------------------------------------------

def _check_dice(dice: Sequence[int], most: int = DICE) -> list[int]:
    faces = list(dice)
    if not faces:
        raise ValueError("no dice given")
    if len(faces) > most:
        raise ValueError(f"{len(faces)} dice given; a wizard has at most {most}")
    return check_faces(faces, SIDES)


def _spell(slug: str) -> Spell:
    if slug not in SPELLS:
        raise ValueError(f"unknown spell {slug!r}; spells: {', '.join(SPELLS)}")
    return SPELLS[slug]


def _part_options(part: Part, available, used_kinds: set[int]) -> Iterable[tuple[int, ...]]:
    """Every way `part` can take dice from `available` (a multiset), best (most, highest) first."""
    if part.kind == "face":
        for n in range(min(part.size, available[part.face]), 0, -1):
            yield (part.face,) * n
    elif part.kind == "kind":
        # Two of-a-kind parts of one pattern show different faces: a Full House is three of one face and a
        # pair of another, and "2 pair" / "3 pair" are pairs of different faces (the poker-hand meanings;
        # otherwise 4 of a kind would also be two pair).
        for face in sorted(available, reverse=True):
            if available[face] >= part.size and face not in used_kinds:
                yield (face,) * part.size
    elif part.kind == "straight":
        for low in range(SIDES - part.size + 1, 0, -1):
            run = tuple(range(low, low + part.size))
            if take(available, run) is not None:
                yield run
    else:
        yield from sorted(set(itertools.combinations(sorted(available.elements()), part.size)), reverse=True)


def _ways(parts: Sequence[Part], available, used_kinds: frozenset[int] = frozenset()):
    if not parts:
        yield ()
        return
    part, rest = parts[0], parts[1:]
    for dice in _part_options(part, available, set(used_kinds)):
        left = take(available, dice)  # the multiset difference: a die used by one part is gone for the rest
        kinds = used_kinds | {dice[0]} if part.kind == "kind" else used_kinds
        for tail in _ways(rest, left, kinds):
            yield (dice,) + tail


def _flat(parts: Sequence[Part], way: Sequence[tuple[int, ...]]) -> tuple[int, ...]:
    """A way's dice in pattern order; alike parts (the pairs of 2 pair) highest first, so 44+33 = 33+44."""
    ordered = []
    for _, run in itertools.groupby(zip(parts, way), key=lambda pair: pair[0]):
        ordered += sorted((dice for _, dice in run), reverse=True)
    return tuple(f for dice in ordered for f in dice)


def ways(spell: str, dice: Sequence[int]) -> list[list[int]]:
    """Every distinct way of casting `spell` from `dice`, each the dice used in pattern order, best first.

    Best means most dice (Missiles and Arrow use "up to" 2 and 3 dice), then highest faces in pattern order,
    so Shield and Counterspell pick the highest extra die (its face is their ally-damage reduction).
    """
    parts = _spell(spell).parts
    found = {_flat(parts, way) for way in _ways(parts, pool(_check_dice(dice)))}
    return [list(w) for w in sorted(found, key=lambda w: (len(w), w), reverse=True)]


def castable(dice: Sequence[int]) -> list[dict]:
    """Every basic spell castable from `dice` (once each), with the dice of its best way of casting it."""
    return [{"spell": slug, "dice": found[0]} for slug in SPELLS if (found := ways(slug, dice))]


def _is_way(spell: Spell, dice: Sequence[int]) -> bool:
    """Whether `dice`, declared part by part in pattern order, cast `spell` (all of them used)."""
    sizes = [len(dice)] if spell.parts[0].kind == "face" else [p.size for p in spell.parts]
    if sum(sizes) != len(dice):
        return False
    cuts = list(itertools.accumulate(sizes, initial=0))
    declared = tuple(tuple(sorted(dice[a:b])) for a, b in itertools.pairwise(cuts))
    return declared in {tuple(tuple(sorted(p)) for p in way) for way in _ways(spell.parts, pool(dice))}


def allocate(dice: Sequence[int], spells: Sequence[str]) -> dict:
    """Whether all of `spells` can be cast together from one roll, each die used at most once.

    Returns {"castable", "casts": [{"spell", "dice"}], "wasted": unused dice} (casts empty when impossible).
    """
    faces = _check_dice(dice)
    wanted = [_spell(s) for s in spells]

    def search(i: int, left):
        if i == len(wanted):
            return []
        for way in _ways(wanted[i].parts, left):
            used = [f for part in way for f in part]
            rest = search(i + 1, take(left, used))
            if rest is not None:
                return [{"spell": wanted[i].slug, "dice": used}] + rest
        return None

    casts = search(0, pool(faces))
    if casts is None:
        return {"castable": False, "casts": [], "wasted": sorted(faces)}
    left = take(pool(faces), [f for c in casts for f in c["dice"]])
    return {"castable": True, "casts": casts, "wasted": sorted(left.elements())}


# --- dice of a round ----------------------------------------------------------------------------------

def dice_available(allies: int, paralysed: int = 0) -> int:
    """Dice a wizard has this round: six, one fewer per living ally (its upkeep) and per Paralysis
    that hit him last round ("normally rolling 6 dice, would roll 5.. but if they also had an ogre ... 4")."""
    if allies < 0 or paralysed < 0:
        raise ValueError("allies and paralysis count cannot be negative")
    return max(0, DICE - allies - paralysed)


def set_aside_allowance(spell_dice: int, allies: int = 0, paralysed: int = 0) -> int:
    """How many dice a wizard may set aside for next round (Spell Continuation): up to 2 when no more
    than 4 dice were used this round, counting dice representing allies and dice lost to paralysis."""
    if min(spell_dice, allies, paralysed) < 0:
        raise ValueError("dice counts cannot be negative")
    if spell_dice + allies + paralysed > DICE:
        raise ValueError(f"{spell_dice + allies + paralysed} dice accounted for; a wizard has only {DICE}")
    return CONTINUATION_DICE if spell_dice + allies + paralysed <= CONTINUATION_MAX_USED else 0


def _roller(dice: Roller | Sequence[int]) -> Roller:
    return dice if callable(dice) else fixed(dice)


def roll_dice(count: int, dice: Roller | Sequence[int], keeps: Sequence[Sequence[int]] = (),
              carried: Sequence[int] = ()) -> list[int]:
    """The faces a wizard ends the rolling step with (sorted).

    `count` dice in all; `carried` dice (set aside by Spell Continuation) are not rolled at all and keep
    their faces. The rest are rolled; after the first and second roll the wizard keeps the faces in the
    next entry of `keeps` and re-rolls the others. The second keep is chosen from ALL the rolled dice, so a
    die set aside after the first roll may be re-rolled. After the third roll every die is kept.
    """
    carried = list(carried)
    if not 0 <= count <= DICE:
        raise ValueError(f"a wizard has 0 to {DICE} dice, not {count}")
    if len(carried) > min(CONTINUATION_DICE, count):
        raise ValueError(f"at most {CONTINUATION_DICE} of his {count} dice can be carried over, not {len(carried)}")
    if len(keeps) > REROLLS:
        raise ValueError(f"only {REROLLS} re-rolls: all dice must be kept after the third roll")
    roller = _roller(dice)
    current = [roller(SIDES) for _ in range(count - len(carried))]
    for keep in keeps:
        if take(pool(current), keep) is None:
            raise ValueError(f"cannot keep {list(keep)}: the dice show {sorted(current)}")
        current = list(keep) + [roller(SIDES) for _ in range(len(current) - len(keep))]
    return sorted(carried + current)


# --- duel state ---------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Ally:
    """A summoned ally: its die shows its health."""
    kind: str
    health: int
    shells: tuple[int, ...] = ()   # free Shields this round from last round's Magic Shell
    poison_due: int = 0            # Poison Arrow damage due at the end of this round


@dataclass(frozen=True)
class Wizard:
    name: str
    health: int
    allies: tuple[Ally, ...] = ()
    paralysed: int = 0             # dice lost this round to Paralysis cast at him last round
    shells: tuple[int, ...] = ()   # ally-damage reduction of each free Shield left by last round's Magic Shell
    poison_due: int = 0


@dataclass(frozen=True)
class Cast:
    """A spell declared for the round: its dice in pattern order, and where it goes.

    `split` ({target: damage}) spreads Magic Missiles or Lightning Bolt over up to 2 targets; `counters`
    names the opponent's spell (cast at the Counterspell's target) that a Counterspell counters;
    `ally_reduction` is a Magic Shell's reduction of ally damage (the source says it acts "exactly like
    SHIELD" without saying which die plays the Shield's 3rd die, so the table decides it).
    """
    spell: str
    dice: tuple[int, ...]
    target: str = ""
    split: tuple[tuple[str, int], ...] = ()
    counters: str = ""
    ally_reduction: int | None = None


@dataclass(frozen=True)
class Tally:
    """What happened to one wizard in a round."""
    healed: int = 0
    ally_damage: int = 0
    spell_damage: int = 0
    poison: int = 0


@dataclass(frozen=True)
class RoundResult:
    wizards: tuple[Wizard, Wizard]        # the state the next round starts from
    tallies: tuple[Tally, Tally]
    countered: tuple[str, ...] = ()       # "caster: spell" for every countered spell
    reflected: tuple[str, ...] = ()       # "caster: spell" for every spell turned by a Magic Mirror
    not_cast: tuple[str, ...] = ()        # attack spells of a wizard killed before the attack phase
    outcome: str = "ongoing"              # "ongoing", "<name> wins" or "tie"


def _wizard(data: Wizard | Mapping) -> Wizard:
    if isinstance(data, Wizard):
        return data
    allies = tuple(a if isinstance(a, Ally) else Ally(a["kind"], a.get("health", ALLY_HEALTH.get(a["kind"], 0)),
                                                      tuple(a.get("shells", ())), a.get("poison_due", 0))
                   for a in data.get("allies", ()))
    for ally in allies:
        if ally.kind not in ALLY_HEALTH:
            raise ValueError(f"unknown ally {ally.kind!r}; allies: {', '.join(ALLY_HEALTH)}")
    return Wizard(data["name"], data["health"], allies, data.get("paralysed", 0), tuple(data.get("shells", ())),
                  data.get("poison_due", 0))


def _cast(data: Cast | Mapping) -> Cast:
    if isinstance(data, Cast):
        return data
    return Cast(data["spell"], tuple(data["dice"]), data.get("target", ""), tuple(data.get("split", {}).items()),
                data.get("counters", ""), data.get("ally_reduction"))


def new_duel(names: Sequence[str], starting_health: int = HIT_POINTS) -> tuple[Wizard, Wizard]:
    """Two wizards at full health: 20 hit points, or 10 for a shorter game."""
    if starting_health not in (HIT_POINTS, SHORT_HIT_POINTS):
        raise ValueError(f"wizards start with {HIT_POINTS} hit points (or {SHORT_HIT_POINTS}), not {starting_health}")
    if len(names) != 2 or names[0] == names[1]:
        raise ValueError("a duel needs two wizards with different names")
    return Wizard(names[0], starting_health), Wizard(names[1], starting_health)


def start_round(wizard: Wizard | Mapping, banish: Sequence[int] = ()) -> dict:
    """A wizard at the start of a round, after banishing the allies numbered in `banish` (from 1): his
    state and the dice he has this round (banishing takes the ally's die back for this very round)."""
    w = _wizard(wizard)
    gone = set(banish)
    if not gone <= set(range(1, len(w.allies) + 1)):
        raise ValueError(f"{w.name} has {len(w.allies)} allies; cannot banish {sorted(gone)}")
    w = replace(w, allies=tuple(a for i, a in enumerate(w.allies, 1) if i not in gone))
    return {"wizard": w, "dice": dice_available(len(w.allies), w.paralysed)}


# --- resolving a round --------------------------------------------------------------------------------

@dataclass
class _Spell:
    """A declared spell during resolution (mutable scratch; never leaves resolve_round)."""
    caster: int
    spell: Spell
    cast: Cast
    targets: list[tuple[tuple[int, int | None], int]]   # (side, ally index or None), damage
    phase: str
    countered: bool = False
    label: str = ""
    victim: _Spell | None = None                        # the spell a Counterspell counters


def _target(name: str, caster: int) -> tuple[int, int | None]:
    sides = {"self": caster, "opponent": 1 - caster, "ally": caster, "opponent-ally": 1 - caster}
    if name in ("self", "opponent"):
        return sides[name], None
    base, _, number = name.rpartition("-")
    if base in sides and number.isdigit() and int(number) >= 1:
        return sides[base], int(number) - 1
    raise ValueError(f"unknown target {name!r}: use self, opponent, ally-N or opponent-ally-N")


def _declare(caster: int, wizard: Wizard, roll: Sequence[int], casts: Sequence[Cast]) -> list[_Spell]:
    """Check a wizard's declared spells against his roll and give each its targets and phase."""
    if len(roll) != dice_available(len(wizard.allies), wizard.paralysed):
        raise ValueError(f"{wizard.name} rolls {dice_available(len(wizard.allies), wizard.paralysed)} dice "
                         f"({len(wizard.allies)} allies, {wizard.paralysed} paralysis), not {len(roll)}")
    left = pool(_check_dice(roll)) if roll else pool([])
    declared = []
    for cast in casts:
        spell = _spell(cast.spell)
        left = take(left, cast.dice)
        if left is None:  # "allocating appropriate dice for each spell": a die serves one spell only
            raise ValueError(f"{wizard.name}'s {spell.slug} needs dice {list(cast.dice)} not left in {list(roll)}")
        if not _is_way(spell, cast.dice):
            raise ValueError(f"{list(cast.dice)} is not a way to cast {spell.name} (dice in pattern order)")
        damage = len(cast.dice) if spell.per_die else spell.damage
        if cast.split:
            if not spell.split or len(cast.split) > 2:
                raise ValueError(f"{spell.name} cannot be split that way (only Magic Missiles and Lightning Bolt "
                                 "split, between up to 2 targets)")
            if sum(d for _, d in cast.split) != damage or min(d for _, d in cast.split) < 1:
                raise ValueError(f"{spell.name} deals {damage}: the split must add up to it")
            targets = [(_target(t, caster), d) for t, d in cast.split]
        else:
            default = "opponent" if spell.type == ATTACK else "self"
            if spell.type == SUMMON and cast.target not in ("", "self"):
                raise ValueError("a summon brings the caster an ally: it has no other target")
            targets = [(_target(cast.target or default, caster), damage)]
        if spell.slug == "magic-shell" and (cast.ally_reduction is None or cast.ally_reduction < 0):
            raise ValueError("Magic Shell needs its ally_reduction: the source does not say which die sets it")
        # Paralysis is an attack spell, but cast at an ally it is a Counter Spell (Counter Spells: PARALYSIS).
        phase = COUNTER if spell.slug == "paralysis" and targets[0][0][1] is not None else spell.type
        declared.append(_Spell(caster, spell, cast, targets, phase, label=f"{wizard.name}: {spell.slug}"))
    return declared


def _complexity(s: _Spell) -> int:
    return len(s.cast.dice)


def _most_complex_first(items: Sequence, size) -> list[list]:
    """Gameplay step 1: counter spells happen "in order of complexity (i.e. how many dice are used) from the
    most complex to the least"; equally complex ones happen together."""
    ordered = sorted(items, key=size, reverse=True)
    return [list(group) for _, group in itertools.groupby(ordered, key=size)]


def counter_order(casts: Sequence[Cast | Mapping]) -> list[list[str]]:
    """Counter Spells (and Paralysis at an ally) in the order they happen: most dice first; spells with as
    many dice happen together."""
    spells = [_cast(c) for c in casts]
    for c in spells:
        if _spell(c.spell).type != COUNTER and c.spell != "paralysis":
            raise ValueError(f"{c.spell} is not a counter spell")
    return [[c.spell for c in group] for group in _most_complex_first(spells, lambda c: len(c.dice))]


def resolve_round(wizards: Sequence[Wizard | Mapping], rolls: Sequence[Sequence[int]],
                  casts: Sequence[Sequence[Cast | Mapping]], starting_health: int = HIT_POINTS) -> RoundResult:
    """Resolve one round of a duel from both wizards' final rolls and declared spells.

    Phases (Gameplay): 1) Counter Spells, most dice first (a Counterspell only stops spells that have not
    happened yet); 2) Summons; 3) Healing (a wizard up to starting health + 1, an ally up to its type's
    starting health); 4) Ally Damage (each living ally deals its health to the enemy wizard); 5) Attack
    Spells, simultaneous: a wizard killed in this phase still deals his damage, but one killed by ally
    damage casts no attack spell. Poison due from last round strikes at the end of the round, unreduced.

    Readings where the source is silent: Shield-like reductions of ally damage apply to the total of the
    opponent's allies and several on one target do not add up (the largest applies, spell damage is reduced
    by 1 once per spell); a Magic Mirror turns spells cast at its target by the mirror caster's opponent to
    the wizard on the other side (an attack back at its caster, a summon or heal to the mirror's caster),
    and a turned Counterspell has nothing left to counter.
    """
    if starting_health not in (HIT_POINTS, SHORT_HIT_POINTS):
        raise ValueError(f"wizards start with {HIT_POINTS} hit points (or {SHORT_HIT_POINTS}), not {starting_health}")
    ws = [_wizard(w) for w in wizards]
    if len(ws) != 2 or len(rolls) != 2 or len(casts) != 2:
        raise ValueError("a duel is two wizards, each with a roll and a list of spells")
    if any(w.health <= 0 for w in ws):
        raise ValueError("a dead wizard casts nothing: the duel is over")
    health = [w.health for w in ws]
    allies = [[[a.kind, a.health] for a in w.allies] for w in ws]  # mutable [kind, health] this round
    spells = [s for i in (0, 1) for s in _declare(i, ws[i], list(rolls[i]), [_cast(c) for c in casts[i]])]
    for s in spells:
        if s.spell.slug == "counterspell":
            # "you must choose your target to be the target of the spell you wish to counter"
            s.victim = next((v for v in spells if v.caster != s.caster and v.spell.slug == s.cast.counters
                             and any(t == s.targets[0][0] for t, _ in v.targets)), None)
            if s.victim is None:
                raise ValueError(f"{s.label} must name (counters) an opponent's spell cast at its target")
    tallies = [{"healed": 0, "ally_damage": 0, "spell_damage": 0, "poison": 0} for _ in ws]
    protection: dict[tuple, list[tuple[int, bool]]] = {}   # target → [(ally-damage reduction, reduces spells)]
    next_shells: dict[tuple, list[int]] = {}
    next_paralysed, next_poison = [0, 0], {}
    mirrors: set[tuple[tuple, int]] = set()                # (mirrored target, mirror caster)
    paralysed_allies: set[tuple] = set()
    reflected: list[str] = []

    for i, w in enumerate(ws):  # last round's Magic Shell: "a free SHIELD next round"
        for amount in w.shells:
            protection.setdefault((i, None), []).append((amount, True))
        for k, a in enumerate(w.allies):
            for amount in a.shells:
                protection.setdefault((i, k), []).append((amount, True))

    def aimed(s: _Spell, target: tuple) -> tuple:
        """Where a spell lands: a Mirror cast by the caster's opponent on its target sends it to the other side."""
        if any(t == target and m != s.caster for t, m in mirrors):
            if s.label not in reflected:
                reflected.append(s.label)
            return 1 - target[0], None
        return target

    def ally(target: tuple) -> list:
        side, k = target
        if k >= len(allies[side]):
            raise ValueError(f"{ws[side].name} has no ally {k + 1}")
        return allies[side][k]

    def paralyse(target: tuple) -> None:
        if target[1] is None:
            next_paralysed[target[0]] += 1
        else:
            paralysed_allies.add(target)

    # 1) Counter Spells, in order of complexity; equally complex ones are simultaneous.
    for group in _most_complex_first([s for s in spells if s.phase == COUNTER], _complexity):
        live = [(s, aimed(s, s.targets[0][0])) for s in group if not s.countered]
        for s, target in live:
            if target[1] is not None:
                ally(target)  # the ally must be in play (this round's summons come later)
            slug, dice = s.spell.slug, s.cast.dice
            if slug == "magic-mirror":
                mirrors.add((target, s.caster))
            elif slug == "shield":  # ally damage reduced by the 3rd die, opponent's spells by 1
                protection.setdefault(target, []).append((dice[2], True))
            elif slug == "magic-shell":
                protection.setdefault(target, []).append((s.cast.ally_reduction, True))
                next_shells.setdefault(target, []).append(s.cast.ally_reduction)
            elif slug == "paralysis":
                paralyse(target)
            elif slug == "counterspell" and target == s.targets[0][0]:
                if s.victim.phase != COUNTER or _complexity(s.victim) < _complexity(s):  # not yet happened
                    s.victim.countered = True
                if target == (s.caster, None):  # on himself it also cuts ally damage by the 4th die
                    protection.setdefault(target, []).append((dice[3], False))

    # 2) Summons and 3) Healing: each simultaneous within its phase.
    for s in spells:
        if s.phase == SUMMON and not s.countered:
            side = aimed(s, (s.caster, None))[0]
            allies[side].append([s.spell.summons, ALLY_HEALTH[s.spell.summons]])
    for s in spells:
        if s.phase == HEALING and not s.countered:
            target = aimed(s, s.targets[0][0])
            if target[1] is None:
                gained = max(0, min(health[target[0]] + s.spell.heal, starting_health + HEAL_ABOVE_START)
                             - health[target[0]])
                health[target[0]] += gained
                tallies[target[0]]["healed"] += gained
            else:
                body = ally(target)
                body[1] = max(body[1], min(body[1] + s.spell.heal, ALLY_HEALTH[body[0]]))

    # 4) Ally Damage: allies still alive hit the enemy wizard, less his best Shield-like reduction.
    hits = []
    for side in (0, 1):
        total = sum(a[1] for k, a in enumerate(allies[side]) if a[1] > 0 and (side, k) not in paralysed_allies)
        guard = max((r for r, _ in protection.get((1 - side, None), [])), default=0)
        hits.append((1 - side, max(0, total - guard)))
    for side, dealt in hits:
        health[side] -= dealt
        tallies[side]["ally_damage"] += dealt

    # 5) Attack Spells, simultaneous; a wizard already dead casts none.
    not_cast = [s.label for s in spells if s.phase == ATTACK and health[s.caster] <= 0]
    damage: dict[tuple, int] = {}
    killed: set[tuple] = set()
    for s in spells:
        if s.phase != ATTACK or s.countered or health[s.caster] <= 0:
            continue
        for declared, amount in s.targets:
            target = aimed(s, declared)
            if target[1] is not None:
                ally(target)
            if s.spell.slug == "paralysis":
                paralyse(target)
            elif s.spell.slug == "finger-of-death":
                killed.add(target)
            else:
                shielded = target[0] != s.caster and any(spell for _, spell in protection.get(target, []))
                dealt = max(0, amount - shielded)
                damage[target] = damage.get(target, 0) + dealt
                # the full 3 damage "without any being prevented or reduced" poisons the target
                if s.spell.slug == "poison-arrow" and amount == 3 and dealt == 3:
                    next_poison[target] = next_poison.get(target, 0) + 1
    for target, dealt in damage.items():
        if target[1] is None:
            health[target[0]] -= dealt
            tallies[target[0]]["spell_damage"] += dealt
        else:
            ally(target)[1] -= dealt
    for target in killed:
        if target[1] is None:
            tallies[target[0]]["spell_damage"] += max(0, health[target[0]])
            health[target[0]] = min(health[target[0]], 0)
        else:
            ally(target)[1] = 0

    # End of round: poison from last round, which "cannot be reduced or prevented".
    for i, w in enumerate(ws):
        health[i] -= w.poison_due
        tallies[i]["poison"] += w.poison_due
        for k, a in enumerate(w.allies):
            allies[i][k][1] -= a.poison_due

    survivors = [
        replace(ws[i], health=health[i], paralysed=next_paralysed[i], shells=tuple(next_shells.get((i, None), ())),
                poison_due=next_poison.get((i, None), 0),
                allies=tuple(Ally(kind, hp, tuple(next_shells.get((i, k), ())), next_poison.get((i, k), 0))
                             for k, (kind, hp) in enumerate(allies[i]) if hp > 0))
        for i in (0, 1)]
    dead = [h <= 0 for h in health]
    outcome = "tie" if all(dead) else f"{ws[dead.index(False)].name} wins" if any(dead) else "ongoing"
    return RoundResult(tuple(survivors), tuple(Tally(**t) for t in tallies),
                       tuple(s.label for s in spells if s.countered), tuple(reflected), tuple(not_cast), outcome)


def replay(names: Sequence[str], rounds: Sequence[Mapping], starting_health: int = HIT_POINTS) -> list[dict]:
    """Play a whole duel from each round's `rolls` and `casts` (and optional `banish`: per wizard, the
    allies banished at the start of the round); the health of both wizards and their allies after each
    round, and the outcome, stopping when the duel is over."""
    wizards = new_duel(names, starting_health)
    history = []
    for number, rnd in enumerate(rounds, 1):
        if history and history[-1]["outcome"] != "ongoing":
            raise ValueError(f"round {number} is played after the duel ended")
        banish = rnd.get("banish", [[], []])
        wizards = tuple(start_round(w, b)["wizard"] for w, b in zip(wizards, banish))
        result = resolve_round(wizards, rnd["rolls"], rnd["casts"], starting_health)
        wizards = result.wizards
        history.append({"round": number, "health": {w.name: w.health for w in wizards},
                        "allies": {w.name: [a.health for a in w.allies] for w in wizards},
                        "outcome": result.outcome})
    return history


# --- calculators --------------------------------------------------------------------------------------

_DICE = Param("the faces rolled, e.g. 1,2,3,4,4,6 (1 to 6 dice)", min=1, max=SIDES, count=(1, DICE))
def _count(help_text: str) -> Param:
    """A count of dice: a wizard has six."""
    return Param(help_text, min=0, max=DICE)


def _faces(dice: Sequence[int]) -> str:
    return " ".join(map(str, dice))


def calc_spells(dice: Annotated[list[int], _DICE]) -> dict:
    """Every basic spell a roll can cast, with the dice of one way of casting each."""
    return {"spells": castable(dice)}


def _say_spells(inputs: dict, result: dict) -> str:
    if not result["spells"]:
        return f"No basic spell can be cast from {_faces(inputs['dice'])}."
    found = "; ".join(f"{SPELLS[s['spell']].name} ({_faces(s['dice'])})" for s in result["spells"])
    return f"From {_faces(inputs['dice'])} the wizard can cast any one of: {found}."


# Every spell takes at least one die, so no more spells than dice can be cast together.
def calc_allocate(dice: Annotated[list[int], _DICE],
                  spells: Annotated[list[str], Param("spells to cast together, e.g. summon-ogre,magic-missiles",
                                                     choices=tuple(SPELLS), count=(1, DICE))]) -> dict:
    """Whether several spells can be cast together from one roll, using each die once, and the dice wasted."""
    return allocate(dice, spells)


def _say_allocate(inputs: dict, result: dict) -> str:
    names = " and ".join(SPELLS[s].name for s in inputs["spells"])
    if not result["castable"]:
        return f"{names} cannot all be cast from {_faces(inputs['dice'])}: each die may be used only once."
    casts = and_list([f"{SPELLS[c['spell']].name} with {_faces(c['dice'])}" for c in result["casts"]])
    wasted = f", leaving {_faces(result['wasted'])} unused" if result["wasted"] else ", using every die"
    return f"Yes: {casts}{wasted}."


def calc_dice(allies: Annotated[int, _count("living allies (each keeps one die as its upkeep)")] = 0,
              paralysed: Annotated[int, _count("Paralysis spells that hit the wizard last round")] = 0,
              carried: Annotated[int, Param("dice set aside last round by Spell Continuation", min=0,
                                            max=CONTINUATION_DICE)] = 0) -> dict:
    """How many dice a wizard has this round and how many of them he rolls."""
    if allies + paralysed > DICE:
        raise ValueError(f"allies and paralysis together take at most the wizard's {DICE} dice")
    dice = dice_available(allies, paralysed)
    if carried > dice:
        raise ValueError(f"carried dice must be 0 to {min(CONTINUATION_DICE, dice)}")
    return {"dice": dice, "rolled": dice - carried}


def _say_dice(inputs: dict, result: dict) -> str:
    lost = [f"{n} kept by {'an ally' if n == 1 else 'allies'}" if key == "allies" else f"{n} lost to Paralysis"
            for key in ("allies", "paralysed") if (n := inputs[key])]
    carried = f", {inputs['carried']} being already set aside by Spell Continuation" if inputs["carried"] else ""
    why = f" (six, {' and '.join(lost)})" if lost else ""
    return f"The wizard has {result['dice']} dice this round{why} and rolls {result['rolled']}{carried}."


def calc_set_aside(spell_dice: Annotated[int, _count("dice used for spells this round")],
                   allies: Annotated[int, _count("dice representing allies this round")] = 0,
                   paralysed: Annotated[int, _count("dice lost to paralysis this round")] = 0) -> dict:
    """How many dice Spell Continuation lets a wizard set aside for next round."""
    return {"may_set_aside": set_aside_allowance(spell_dice, allies, paralysed)}


def _say_set_aside(inputs: dict, result: dict) -> str:
    used = inputs["spell_dice"] + inputs["allies"] + inputs["paralysed"]
    if result["may_set_aside"]:
        return (f"The wizard may set aside up to {result['may_set_aside']} dice for next round: {used} dice were "
                f"used this round (allies and paralysis included), no more than {CONTINUATION_MAX_USED}.")
    return (f"No dice may be set aside: {used} dice were used this round (allies and paralysis included), more "
            f"than {CONTINUATION_MAX_USED}.")


CALCULATORS = {
    "spells": Calculator(calc_spells, ("wizard-dice/rules/gameplay",
                                       *(f"wizard-dice/rules/list-of-basic-spells/{slug}" for slug in SPELLS)),
                         _say_spells),
    "allocate": Calculator(calc_allocate, ("wizard-dice/rules/gameplay", "wizard-dice/rules/example-of-play"),
                           _say_allocate),
    "dice": Calculator(calc_dice, ("wizard-dice/rules/summoning-and-allies", "wizard-dice/rules/attack-spells/paralysis",
                                   "wizard-dice/rules/spell-continuation"), _say_dice),
    "set-aside": Calculator(calc_set_aside, ("wizard-dice/rules/spell-continuation",), _say_set_aside),
}
