"""The shared dice primitives: injected rollers, multiset pools, range tables and the die-face check."""
import pytest

from engine import dice

# --- rollers -------------------------------------------------------------------------------------------

def test_fixed_roller_returns_its_faces_in_order():
    roller = dice.fixed([3, 1, 6])
    assert [roller(6), roller(6), roller(6)] == [3, 1, 6]


def test_fixed_roller_fails_loudly_when_it_runs_out_of_faces():
    roller = dice.fixed([2])
    roller(6)
    with pytest.raises(RuntimeError, match="more dice rolled than faces given"):
        roller(6)


def test_fixed_roller_refuses_a_face_the_die_rolled_does_not_have():
    with pytest.raises(ValueError, match=r"^fixed roller: face 7 is not on a d6$"):
        dice.fixed([7])(6)
    assert dice.fixed([7])(10) == 7


def test_seeded_rollers_with_one_seed_roll_the_same_faces():
    assert dice.roll(20, 6, dice.seeded(3)) == dice.roll(20, 6, dice.seeded(3))


def test_seeded_roller_stays_on_the_die():
    assert set(dice.roll(200, 6, dice.seeded(1))) == {1, 2, 3, 4, 5, 6}


def test_roll_rolls_count_dice_of_the_given_sides():
    asked = []

    def roller(sides):
        asked.append(sides)
        return sides

    assert dice.roll(3, 20, roller) == [20, 20, 20]
    assert asked == [20, 20, 20]


# --- pools ---------------------------------------------------------------------------------------------

def test_pool_counts_how_many_dice_show_each_face():
    assert dice.pool([4, 1, 4]) == dice.pool([4, 4, 1])
    assert dice.pool([4, 1, 4])[4] == 2


def test_take_leaves_the_dice_not_taken():
    assert dice.take(dice.pool([1, 4, 4, 6]), [4, 6]) == dice.pool([1, 4])


def test_take_never_uses_one_die_twice():
    assert dice.take(dice.pool([4, 5]), [4, 4]) is None
    assert dice.take(dice.pool([4]), [4, 4, 4]) is None


def test_take_needing_a_face_not_rolled_is_none():
    assert dice.take(dice.pool([1, 2]), [3]) is None


def test_take_leaves_the_pool_it_took_from_unchanged():
    available = dice.pool([2, 2, 3])
    dice.take(available, [2])
    assert available == dice.pool([2, 2, 3])


def test_taking_every_die_leaves_an_empty_pool_with_no_zero_counts():
    rest = dice.take(dice.pool([5, 5]), [5, 5])
    assert rest == dice.pool([])
    assert list(rest) == []


def test_half_down_rounds_down():
    assert [dice.half_down(n) for n in (0, 1, 7, 8)] == [0, 0, 3, 4]


# --- range tables --------------------------------------------------------------------------------------

TABLE = (dice.Band(None, 4, "low"), dice.Band(5, 9, "middle"), dice.Band(10, None, "high"))


def test_lookup_bands_include_both_ends():
    assert [dice.lookup(TABLE, x) for x in (4, 5, 9, 10)] == ["low", "middle", "middle", "high"]


def test_lookup_open_bands_reach_any_value():
    assert dice.lookup(TABLE, -100) == "low"
    assert dice.lookup(TABLE, 1000) == "high"


def test_lookup_takes_the_first_band_holding_the_value():
    assert dice.lookup((dice.Band(1, 6, "first"), dice.Band(3, 4, "second")), 3) == "first"


def test_lookup_outside_every_band_is_an_error():
    with pytest.raises(ValueError, match=r"^7 is outside the table$"):
        dice.lookup((dice.Band(1, 6, "in"),), 7)


# --- the die-face check --------------------------------------------------------------------------------

def test_check_face_returns_a_face_the_die_has():
    assert [dice.check_face(f, 20) for f in (1, 20)] == [1, 20]


@pytest.mark.parametrize("face", [0, 7, -1])
def test_check_face_names_the_die_that_cannot_show_it(face):
    with pytest.raises(ValueError, match=rf"^a d6 cannot show {face}$"):
        dice.check_face(face, 6)


def test_check_faces_returns_the_faces_as_a_list():
    assert dice.check_faces((1, 6, 6), 6) == [1, 6, 6]


def test_check_faces_names_every_face_the_die_cannot_show():
    with pytest.raises(ValueError, match=r"^faces \[0, 7\] are not on a d6$"):
        dice.check_faces([0, 3, 7], 6)
