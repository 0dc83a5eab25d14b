import numpy as np
import pytest

from frontierco.errors import FormatError
from frontierco.problems.files import read_instance, write_instance
from frontierco.problems.generate import generate

# FrontierCO's layout: n m, n lines 'capacity fixed', the m demands, n rows of m costs
PLC = """2 3
10 100
6 50.5
4 4 4
1 2 3
5 5 1
"""
# OR-Library cap: m n, m lines 'capacity fixed', then per customer its demand and its m costs (wrapped)
CAP = """2 3
10 100
6 50.5
4
1 5
4 2
5
4 3 1
"""


def _write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return path


@pytest.mark.parametrize("name, text", [("a.plc", PLC), ("a.cap", CAP)])
def test_both_layouts_read_the_same_instance(tmp_path, name, text):
    instance = read_instance(_write(tmp_path, name, text))
    assert (instance.n, instance.m) == (2, 3)
    assert instance.capacity.tolist() == [10, 6] and instance.fixed_cost.tolist() == [100, 50.5]
    assert instance.demand.tolist() == [4, 4, 4]
    assert instance.cost.tolist() == [[1, 2, 3], [5, 5, 1]]


def test_write_then_read_is_exact(tmp_path):
    instance = generate("cflp-cornuejols", "g", 3, {"customers": 20, "facilities": 7}).instance
    write_instance(tmp_path / "g.plc", instance)
    again = read_instance(tmp_path / "g.plc")
    for field in ("capacity", "fixed_cost", "demand", "cost"):
        assert np.array_equal(getattr(again, field), getattr(instance, field))


@pytest.mark.parametrize(
    "name, text, line, expected",
    [
        ("short.plc", PLC.rsplit("\n", 2)[0] + "\n", 5, "15 numbers"),
        ("long.plc", PLC + "7\n", 7, "nothing after the 15 numbers"),
        ("word.plc", PLC.replace("6 50.5", "6 fifty"), 3, "a number, got 'fifty'"),
        ("negative.plc", PLC.replace("4 4 4", "4 -4 4"), 4, "non-negative demand"),
        ("header.plc", "2.5 3\n" + PLC.split("\n", 1)[1], 1, "two positive integers"),
        ("capa.cap", CAP.replace("10 100", "capacity 100"), 2, "capinfo"),
        ("short.cap", CAP.rsplit("\n", 2)[0] + "\n", 7, "15 numbers"),
    ],
)
def test_lying_input_is_one_line_naming_the_line(tmp_path, name, text, line, expected):
    with pytest.raises(FormatError) as error:
        read_instance(_write(tmp_path, name, text))
    assert f":{line}:" in str(error.value) and expected in str(error.value) and "\n" not in str(error.value)


def test_frontiercos_generated_txt_files_read_as_facility_location(tmp_path):
    """FrontierCO's CFLP generator writes the .plc layout under .txt (valid_instances/cflp_corn_*.txt)."""
    instance = read_instance(_write(tmp_path, "cflp_corn_n2_m3_r5.0_1.txt", PLC))
    assert (instance.n, instance.m) == (2, 3) and instance.cost.tolist() == [[1, 2, 3], [5, 5, 1]]
    with pytest.raises(FormatError, match="15 numbers"):
        read_instance(_write(tmp_path, "short.txt", PLC.rsplit("\n", 2)[0] + "\n"))
