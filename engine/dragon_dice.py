"""Dragon Dice magic, as the Official FAQ Part Two - Magic (v1.44) settles it.

A magic action runs in this order (letters are the FAQ's General Rules):
1. the terrain die decides whether magic may be rolled at all (A);
2. magic, cantrip and ID ("face") icons count as magic points, even without mage dice (B, H);
3. penalties and bonuses come off the ICON results, split as the caster likes (G);
4. each group's points are given one of its units' two colours (G);
5. terrain doubles the points of its own colours, never black magic and never a reserve army (G, I, M);
   black magic doubles instead by burying whole dead units of one player, as many health points as are
   doubled (I-M);
6. every point is spent and every spell targeted before any takes effect; leftovers are lost (E);
7. everything lands at once, and repeated castings of one spell are one stronger spell (F, N).
Dice are never rolled here: callers pass the icons their dice showed.
"""
from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Annotated, Literal

from engine.calculators import Calculator, Param
from engine.dice import half_down

GAME = "dragon-dice"  # this module is that game's engine (engine.registry finds it by this)

BLACK = "black"  # death magic
MAGIC_COLOURS = ("black", "blue", "gold", "green", "red")
ELEMENT_COLOURS = MAGIC_COLOURS[1:]  # the colours a terrain can have: black is never a terrain's
MAGIC_ICONS = ("magic", "cantrip", "id")  # B: face (ID) icons count as magic; H: so do cantrips
ICONS = MAGIC_ICONS + ("melee", "missile", "save", "maneuver")
TERRAIN_ICONS = ("magic", "melee", "missile", "eighth")
ACTIONS = ("melee", "missile", "magic")
DURATION_SPELLS = ("stoneskin", "transmute rock to mud")  # O names these two

# The calculators' bounds. Forces are counted in health: 36 is the usual tournament army, 60 the largest
# format played, and every unit has at least 1 health, so no dead unit area holds more than 60 units.
MAX_DEAD_UNITS = 60
# Results of one roll (saves, magic points, Stoneskins on an army): a unit's ID icon gives its health in
# results and its other faces a few icons, so even a 60-health force on its best faces, its magic doubled by
# the terrain, stays far below this.
MAX_RESULTS = 500


@dataclass(frozen=True)
class Spell:
    """What the FAQ states about a spell; None where it does not say (callers then supply it per cast)."""
    target: Literal["army", "unit"]
    colour: str | None = None
    cost: int | None = None
    saves: int = 0  # automatic saves added to the target army per casting


# Hailstorm and Lightning Strike appear only in examples F and N, which give their targets but not their
# colour or cost.
SPELLS = {
    "stoneskin": Spell(target="army", colour="gold", cost=2, saves=1),  # Earth: Gold Magic 1
    "hailstorm": Spell(target="army"),
    "lightning strike": Spell(target="unit"),
}


class MagicAction(enum.Enum):
    """Whether the acting army may take a magic action, by the icon its terrain die shows (rule A)."""
    MAGIC_OR_NOTHING = "magic-or-nothing"  # magic icon: magic is the only action, though none may be taken
    MAGIC_ALLOWED = "magic-allowed"        # eighth face: magic is one of the choices
    NO_MAGIC = "no-magic"                  # melee or missile icon


def magic_action(terrain_icon: str) -> MagicAction:
    """Rule A: what the terrain die's icon (after the maneuver, or its skipping) allows for magic."""
    _check_choice("terrain icon", terrain_icon, TERRAIN_ICONS)
    if terrain_icon == "magic":
        return MagicAction.MAGIC_OR_NOTHING
    if terrain_icon == "eighth":
        return MagicAction.MAGIC_ALLOWED
    return MagicAction.NO_MAGIC


def counterattack(action: str) -> bool:
    """Whether the target answers the action with a counter-attack.

    Rule C: never for magic, even when every spell falls on an army at the same terrain. The rulebook
    gives a counter-attack to melee only, so a missile attack gets none either.
    """
    _check_choice("action", action, ACTIONS)
    return action == "melee"


# --- rolling, penalties, colours and terrain -------------------------------------------------------

@dataclass(frozen=True)
class Rolled:
    """Icons one or more dice of the same colours showed: `count` icons of kind `icon`.

    Every unit casts two colours (rule G); Dragonmaster promotional units are the exception, and the
    FAQ does not say how many colours they have, so `dragonmaster` lifts the check.
    """
    colours: tuple[str, ...]
    icon: str
    count: int
    dragonmaster: bool = False

    def __post_init__(self):
        for colour in self.colours:
            _check_choice("colour", colour, MAGIC_COLOURS)
        _check_choice("icon", self.icon, ICONS)
        if self.count < 0:
            raise ValueError(f"a die cannot show {self.count} icons")
        if not self.colours:
            raise ValueError("a unit needs at least one colour")
        if not self.dragonmaster and len(set(self.colours)) != 2:
            raise ValueError(f"a unit casts exactly two colours (rule G), not {list(self.colours)}")

    @property
    def group(self) -> str:
        """Dice of the same colours pool their points: 'gold/red'."""
        return "/".join(sorted(set(self.colours)))


def _rolled(item: Rolled | Mapping) -> Rolled:
    if isinstance(item, Rolled):
        return item
    return Rolled(tuple(item["colours"]), item["icon"], item["count"], item.get("dragonmaster", False))


def icon_points(rolled: Iterable[Rolled | Mapping]) -> dict[str, int]:
    """Magic points per colour group ('gold/red') from a magic roll.

    Magic icons count, and so do cantrips (rule H) and ID icons, which is what lets an army without mage
    dice take a magic action (rule B); melee, missile, save and maneuver icons do not.
    """
    points: dict[str, int] = {}
    for die in map(_rolled, rolled):
        if die.icon in MAGIC_ICONS:
            points[die.group] = points.get(die.group, 0) + die.count
    return points


def apply_roll_modifier(points: Mapping[str, int], modifier: int,
                        split: Mapping[str, int] | None = None) -> dict[str, int]:
    """Rule G: a penalty (negative) or bonus (positive) to the roll comes off the ICON results.

    `split` is the caster's choice of how much of `modifier` each colour group takes (signed like it);
    it may be left out when one group can take it all. A penalty larger than every icon leaves nothing.
    """
    if split is None:
        if modifier and len(points) != 1:
            raise ValueError("say which colour groups take the roll modifier (rule G: the caster chooses)")
        split = {group: max(modifier, -n) for group, n in points.items()}
    unknown = set(split) - set(points)
    if unknown:
        raise ValueError(f"no icons rolled for {sorted(unknown)}")
    if any(share * modifier < 0 for share in split.values()):
        raise ValueError("every share of the modifier must have its sign")
    after = {group: n + split.get(group, 0) for group, n in points.items()}
    if any(n < 0 for n in after.values()):
        raise ValueError("a group cannot give up more icons than it rolled")
    wiped_out = modifier < 0 and not any(after.values())
    if sum(split.values()) != modifier and not wiped_out:
        raise ValueError(f"the shares {dict(split)} do not add up to the modifier {modifier}")
    return after


def choose_colours(points: Mapping[str, int], chosen: Mapping[str, Mapping[str, int]]) -> dict[str, int]:
    """Rule G: each group's points become its colours as the caster chooses; points per colour.

    Every point gets a colour, and only a colour its units have; groups left with no points may be omitted.
    """
    missing = {group for group, n in points.items() if n} - set(chosen)
    if missing or set(chosen) - set(points):
        raise ValueError(f"choose colours for the groups rolled: {sorted(points)}")
    by_colour: dict[str, int] = {}
    for group, split in chosen.items():
        colours = group.split("/")
        for colour, n in split.items():
            if colour not in colours:
                raise ValueError(f"{group} units cannot cast {colour} magic")
            if n < 0:
                raise ValueError("points per colour cannot be negative")
            by_colour[colour] = by_colour.get(colour, 0) + n
        if sum(split.values()) != points[group]:
            raise ValueError(f"{group} has {points[group]} points to colour, not {sum(split.values())}")
    return {colour: n for colour, n in sorted(by_colour.items()) if n}


def terrain_bonus(points: Mapping[str, int], terrain_colours: Iterable[str], reserve: bool = False
                  ) -> dict[str, int]:
    """Points per colour after the terrain bonus: the terrain's colours double.

    Applied last, to the chosen points (G); black magic never (I); a reserve army never doubles (M).
    The FAQ names only coastland's colours (blue and green), so the terrain's colours are a parameter.
    """
    terrain = set(terrain_colours)
    for colour in terrain | set(points):
        _check_choice("colour", colour, MAGIC_COLOURS)
    return {colour: n * 2 if colour in terrain and colour != BLACK and not reserve else n
            for colour, n in sorted(points.items()) if n}


def magic_points(rolled: list, chosen: dict, terrain_colours: list[str], roll_modifier: int = 0,
                 modifier_split: dict | None = None, reserve: bool = False) -> dict[str, int]:
    """The points of each colour a magic action has to spend, steps 2-5 above (black not yet doubled).

    `rolled`: Rolled items (or dicts of their fields); `chosen`: group → colour → points after the
    roll modifier; `modifier_split`: group → its share of `roll_modifier`.
    """
    points = apply_roll_modifier(icon_points(rolled), roll_modifier, modifier_split)
    return terrain_bonus(choose_colours(points, chosen), terrain_colours, reserve)


# --- black magic: doubling by burial -----------------------------------------------------------------

MAX_HEALTH = 4  # a unit's health: small 1, medium 2, large 3, monster 4


def legal_burials(dead_units: list[int], points: int) -> list[list[int]]:
    """The ways a player targeted for `points` of burial may bury units (health values), rule K.

    The obligation is that of combat damage: only whole units are buried, never more health than the
    points, and as much health as possible — with a 1- and a 3-health unit, 3 points must bury the
    3-health unit, not the 1 with 2 points wasted (example K). The player chooses only between ways
    that bury the same, largest, health. Units of equal health are interchangeable, so the ways are
    counted per health value (at most four of them), not per subset of units. The health totals each
    suffix of health values can bury are found first (a bounded subset sum: health values × units × points),
    so the ways are then built only along totals that can be completed: the work is that table plus the
    ways themselves, however many units lie in the dead area.
    """
    if any(not 1 <= health <= MAX_HEALTH for health in dead_units):
        raise ValueError(f"a unit has 1 to {MAX_HEALTH} health")
    if points < 0:
        raise ValueError("cannot bury a negative number of points")
    counts = sorted(Counter(dead_units).items())
    most = min(points, sum(dead_units))
    # buryable[i]: the totals up to `most` that units of counts[i:] can make exactly
    buryable = [{0}]
    for health, available in reversed(counts):
        buryable.insert(0, {total + health * taken for total in buryable[0]
                            for taken in range(min(available, (most - total) // health) + 1)})

    def ways(index: int, left: int) -> list[list[int]]:
        """Every burial of exactly `left` health from counts[index:] (`left` is in buryable[index])."""
        if index == len(counts):
            return [[]]
        health, available = counts[index]
        return [[health] * taken + rest for taken in range(min(available, left // health) + 1)
                if left - health * taken in buryable[index + 1] for rest in ways(index + 1, left - health * taken)]

    return sorted(ways(0, max(buryable[0])))


BURIAL_PROBLEMS = {
    "reserve-army": "a reserve army can never double magic, black magic included (rule M)",
    "black-magic-not-cast": "units are buried only while black magic is actually cast (rule D)",
    "more-than-points-rolled": "no more can be buried than the black points rolled (rule I)",
    "more-than-one-player": "only one player can be targeted for burial in a magic action (rule L)",
}


def burial_problems(black_points: int, burials: dict[str, int], reserve: bool = False) -> list[str]:
    """Why a caster may not ask for these burials (keys of BURIAL_PROBLEMS); empty when allowed.

    `burials`: player → points of black magic the caster doubles by targeting that player's dead units.
    """
    asked = {player: n for player, n in burials.items() if n}
    if any(n < 0 for n in asked.values()) or black_points < 0:
        raise ValueError("points cannot be negative")
    if not asked:
        return []  # doubling is never an obligation (rule D)
    problems = []
    if reserve:
        problems.append("reserve-army")
    if black_points == 0:
        problems.append("black-magic-not-cast")
    elif sum(asked.values()) > black_points:
        problems.append("more-than-points-rolled")
    if len(asked) > 1:
        problems.append("more-than-one-player")
    return problems


@dataclass(frozen=True)
class BlackDoubling:
    """Black magic after burial: points to spend, how many were doubled, and the target's options."""
    points: int
    doubled: int
    burial_options: list[list[int]]


def double_black_magic(black_points: int, dead_areas: dict[str, list[int]], burials: dict[str, int],
                       reserve: bool = False) -> BlackDoubling:
    """Double black magic by burying dead units (rules I-M).

    Each buried health point doubles one black point (J: only units actually buried count), so a caster
    with 2 black points and only 3-health units in the dead areas doubles nothing. With no dead units
    there is nothing to double (I). `dead_areas`: player → health of each unit in their dead unit area.
    """
    problems = burial_problems(black_points, burials, reserve)
    if problems:
        raise ValueError("; ".join(BURIAL_PROBLEMS[p] for p in problems))
    target = next((player for player, n in burials.items() if n), None)
    if target is None:
        return BlackDoubling(black_points, 0, [[]])
    if target not in dead_areas:
        raise ValueError(f"no dead unit area for {target!r}")
    options = legal_burials(dead_areas[target], burials[target])
    doubled = sum(options[0])
    return BlackDoubling(black_points + doubled, doubled, options)


# --- spending and resolving -------------------------------------------------------------------------

@dataclass(frozen=True)
class Cast:
    """One casting of a spell at an army (or one of its units); colour, cost and damage per casting."""
    spell: str
    army: str
    unit: str | None = None
    colour: str | None = None
    cost: int | None = None
    damage: int = 0


def _cast(item: Cast | Mapping) -> Cast:
    cast = item if isinstance(item, Cast) else Cast(**item)
    known = SPELLS.get(cast.spell)
    if known:
        if not may_target(cast.spell, "unit" if cast.unit else "army"):
            raise ValueError(f"{cast.spell} targets a{'n' if known.target == 'army' else ''} {known.target}")
        for field in ("colour", "cost"):
            stated, given = getattr(known, field), getattr(cast, field)
            if stated is not None and given not in (None, stated):
                raise ValueError(f"{cast.spell} has {field} {stated}, not {given}")
        cast = replace(cast, colour=cast.colour or known.colour,
                       cost=known.cost if cast.cost is None else cast.cost)
    return cast


def may_target(spell: str, target: Literal["army", "unit"]) -> bool:
    """Whether `spell` may be cast at a whole army or at a single unit (Stoneskin A: army only).

    Any army will do, the caster's or an opponent's.
    """
    if spell not in SPELLS:
        raise ValueError(f"the FAQ does not say what {spell!r} targets; known: {', '.join(SPELLS)}")
    _check_choice("target", target, ("army", "unit"))
    return SPELLS[spell].target == target


@dataclass(frozen=True)
class Spending:
    """Points spent per colour, and points left over, which are lost (rule E)."""
    spent: dict[str, int]
    lost: dict[str, int]


def spend(available: dict[str, int], casts: list) -> Spending:
    """Rule E: pay for every spell, all targeted before any takes effect; what is left is lost.

    Each spell is paid in its own colour. Stoneskin costs 2 gold; other spells need `colour` and `cost`
    in their cast, the FAQ not stating them.
    """
    if any(n < 0 for n in available.values()):
        raise ValueError("available points cannot be negative")
    spent: dict[str, int] = {}
    for cast in map(_cast, casts):
        if cast.colour is None or cast.cost is None:
            raise ValueError(f"give the colour and cost of {cast.spell}")
        spent[cast.colour] = spent.get(cast.colour, 0) + cast.cost
    for colour, n in spent.items():
        if n > available.get(colour, 0):
            raise ValueError(f"{n} {colour} points spent but only {available.get(colour, 0)} available")
    lost = {colour: n - spent.get(colour, 0) for colour, n in sorted(available.items())}
    return Spending(dict(sorted(spent.items())), {colour: n for colour, n in lost.items() if n})


@dataclass(frozen=True)
class Effect:
    """One spell landing on its target (`unit` empty for the whole army): its castings and the saves rolled."""
    spell: str
    army: str
    unit: str
    castings: int
    damage: int
    saves_added: int
    save_rolls: int
    rollers: list[str]


def resolve(armies: dict[str, list[str]], casts: list,
            separate: tuple[str, ...] | list[str] = ()) -> list[Effect]:
    """How the spells of one magic action land (rules F and N).

    Castings of one spell at one target are one stronger spell (N: two Hailstorms are 2 damage and ONE
    saving throw); the FAQ says most but not all spells work this way without naming the others, so
    `separate` lists spells whose castings stay apart. All spells land together (F), so the units that
    roll saves are those of the army as it stood before the action: a unit struck by a Lightning Strike
    still rolls against a Hailstorm on its army.
    """
    effects: dict[tuple, list[Cast]] = {}
    for index, cast in enumerate(map(_cast, casts)):
        if cast.army not in armies or (cast.unit and cast.unit not in armies[cast.army]):
            raise ValueError(f"no such target: {cast.unit or ''} {cast.army}".strip())
        key = (cast.spell, cast.army, cast.unit, index if cast.spell in separate else None)
        effects.setdefault(key, []).append(cast)
    landed = []
    for (spell, army, unit, _), group in effects.items():
        damage = sum(cast.damage for cast in group)
        rollers = ([unit] if unit else list(armies[army])) if damage else []
        saves_added = len(group) * SPELLS[spell].saves if spell in SPELLS else 0
        landed.append(Effect(spell, army, unit or "", len(group), damage, saves_added, 1 if damage else 0, rollers))
    return landed


# --- lasting spells and saves -----------------------------------------------------------------------

def stoneskin_bonus(castings: list[dict], turn_order: list[str], player: str, round: int) -> int:
    """Automatic saves an army has from Stoneskins during `player`'s turn of `round`.

    Each Stoneskin ({"caster", "round"}) adds one save until the beginning of its caster's next turn;
    castings add up, whoever cast them, while their durations overlap (Stoneskin B).
    """
    def moment(who: str, when: int) -> tuple[int, int]:
        if who not in turn_order:
            raise ValueError(f"{who!r} is not in the turn order")
        return when, turn_order.index(who)

    now = moment(player, round)
    return sum(1 for c in castings
               if moment(c["caster"], c["round"]) <= now < moment(c["caster"], c["round"] + 1))


def effects_after_move(effects: list[str], origin: str, destination: str) -> list[str]:
    """Rule O: spells with a duration stay with an army only while it stays where it was.

    Moving (even out of the reserve) removes them; what the FAQ does not call a spell with a duration
    is left alone.
    """
    if origin == destination:
        return list(effects)
    return [effect for effect in effects if effect not in DURATION_SPELLS]


def saves(rolled: Annotated[int, Param("save results the army rolled", min=0, max=MAX_RESULTS)],
          frosted: Annotated[bool, Param("the army is frosted (green dragon breath): halves the roll")] = False,
          stoneskins: Annotated[int, Param("Stoneskins on the army: +1 save each", min=0, max=MAX_RESULTS)] = 0
          ) -> dict:
    """Saves after modifiers: roll modifiers (frost halves, rounding down) before result modifiers (Stoneskin).

    Stoneskin C: frosted, 3 Stoneskins and 7 saves rolled give 7 // 2 + 3 = 6, not (7 + 3) // 2 = 5.
    """
    if rolled < 0 or stoneskins < 0:
        raise ValueError("saves rolled and Stoneskins cannot be negative")
    roll = half_down(rolled) if frosted else rolled
    return {"saves": roll + stoneskins}


# --- judges' calculators ----------------------------------------------------------------------------

def _points(n: int) -> str:
    return f"{n} point{'' if n == 1 else 's'}"


def _say_saves(inputs: dict, result: dict) -> str:
    roll = (f"{inputs['rolled']} saves rolled, halved for frost (rounding down) to {half_down(inputs['rolled'])}"
            if inputs["frosted"] else f"{inputs['rolled']} saves rolled")
    bonus = f", then +{inputs['stoneskins']} for Stoneskin on the result" if inputs["stoneskins"] else ""
    return f"The army has {result['saves']} saves: {roll}{bonus}."


def _chosen(colour: str) -> Param:
    return Param(f"{colour} points chosen", min=0, max=MAX_RESULTS)


def calc_magic_points(
        terrain_colours: Annotated[list[str], Param("the colours of the army's terrain (coastland: blue, green)",
                                                    choices=ELEMENT_COLOURS, count=(1, 2))],
        black: Annotated[int, _chosen("black (death)")] = 0,
        blue: Annotated[int, _chosen("blue (air)")] = 0,
        gold: Annotated[int, _chosen("gold (earth)")] = 0,
        green: Annotated[int, _chosen("green (water)")] = 0,
        red: Annotated[int, _chosen("red (fire)")] = 0,
        reserve: Annotated[bool, Param("the casting army is in reserve")] = False) -> dict:
    """Magic points per colour after the terrain bonus (never black, never in reserve)."""
    chosen = {"black": black, "blue": blue, "gold": gold, "green": green, "red": red}
    points = terrain_bonus(chosen, terrain_colours, reserve)
    return {"points": points, "total": sum(points.values()),
            "doubled": sorted(colour for colour, n in points.items() if n != chosen[colour])}


def _say_magic_points(inputs: dict, result: dict) -> str:
    if not result["total"]:
        return "No magic points were chosen, so there is nothing to double."
    parts = [f"{colour} {n}" + (" (doubled by the terrain)" if colour in result["doubled"] else "")
             for colour, n in result["points"].items()]
    why = ("; a reserve army never doubles its magic" if inputs["reserve"]
           else "; black magic never gets the terrain bonus" if result["points"].get(BLACK) else "")
    return f"The army has {_points(result['total'])} to spend: {', '.join(parts)}{why}."


def calc_black_magic(
        black_points: Annotated[int, Param("black magic points rolled and being cast", min=0, max=MAX_RESULTS)],
        dead_units: Annotated[list[int], Param("health of each unit in the targeted player's dead unit area "
                                               "(small 1, medium 2, large 3, monster 4)", min=1, max=MAX_HEALTH,
                                               count=(0, MAX_DEAD_UNITS))],
        bury_points: Annotated[int, Param("black points the caster wants to double by burial", min=0,
                                          max=MAX_RESULTS)],
        reserve: Annotated[bool, Param("the casting army is in reserve")] = False) -> dict:
    """Black magic after doubling by burial, and the burials the targeted player may choose between."""
    result = double_black_magic(black_points, {"target": dead_units}, {"target": bury_points}, reserve)
    return {"points": result.points, "doubled": result.doubled, "burial_options": result.burial_options}


def _say_black_magic(inputs: dict, result: dict) -> str:
    if not result["doubled"]:
        return (f"The caster has {_points(result['points'])} of black magic: nothing is doubled, because no unit "
                "that fits can actually be buried.")
    options = " or ".join("+".join(map(str, option)) for option in result["burial_options"])
    return (f"The caster has {_points(result['points'])} of black magic: {result['doubled']} doubled by burying "
            f"units of health {options} (the targeted player chooses, and must bury as much as fits).")


CALCULATORS = {
    "saves": Calculator(saves, ("dragon-dice/magic/earth/stoneskin/c", "dragon-dice/magic/earth/stoneskin/b"),
                        _say_saves),
    "magic-points": Calculator(calc_magic_points, (
        "dragon-dice/magic/general/b", "dragon-dice/magic/general/g", "dragon-dice/magic/general/h",
        "dragon-dice/magic/general/i", "dragon-dice/magic/general/m"), _say_magic_points),
    "black-magic": Calculator(calc_black_magic, (
        "dragon-dice/magic/general/d", "dragon-dice/magic/general/i", "dragon-dice/magic/general/j",
        "dragon-dice/magic/general/k", "dragon-dice/magic/general/l", "dragon-dice/magic/general/m"),
        _say_black_magic),
}


def _check_choice(what: str, value: str, choices: tuple[str, ...]) -> None:
    if value not in choices:
        raise ValueError(f"unknown {what} {value!r}; one of {', '.join(choices)}")
