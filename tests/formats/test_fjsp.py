import numpy as np
import pytest

from frontierco.errors import FormatError
from frontierco.problems.common.fingerprint import content_sha256
from frontierco.problems.files import read_instance, write_instance
from frontierco.problems.fjsp.files import read_fjs, read_naderi
from frontierco.problems.generate import generate


def _same(a, b):
    return (
        all(np.array_equal(getattr(a, f), getattr(b, f)) for f in ("job_ptr", "option_ptr", "machines", "times"))
        and a.num_machines == b.num_machines
    )


def test_behnke_geiger_reads_with_its_sizes(mirror):
    shop = read_instance(mirror / "fjsp" / "behnke-geiger" / "Behnke1.fjs")
    assert (shop.name, shop.num_jobs, shop.num_machines, shop.num_operations, len(shop.machines)) == ("Behnke1", 10, 20, 50, 304)


def test_naderi_text_form_reads_and_matches_its_header(mirror):
    path = mirror / "fjsp" / "naderi" / "73.txt"
    shop = read_instance(path)
    lines = path.read_text().split("\n")
    assert (shop.name, shop.num_jobs, shop.num_machines) == ("73", int(lines[0]), int(lines[1]))
    assert np.diff(shop.job_ptr).tolist() == [int(t) for t in lines[2].split()]
    first = [int(t) for t in lines[3].split()]
    machines, times = shop.options(0)
    assert machines.tolist() == [m for m, t in enumerate(first) if t] and times.tolist() == [t for t in first if t]


def test_naderi_file_written_as_fjs_reads_back_the_same(mirror, tmp_path):
    shop = read_instance(mirror / "fjsp" / "naderi" / "81.txt")
    write_instance(tmp_path / "81.fjs", shop)
    assert _same(read_fjs(tmp_path / "81.fjs"), shop)


def test_generated_instance_round_trips_through_fjs(tmp_path):
    shop = generate("fjsp-random", "g", 3, {"jobs": 6, "machines": 4, "operations": 3}).instance
    write_instance(tmp_path / "g.fjs", shop)
    again = read_instance(tmp_path / "g.fjs")
    assert _same(again, shop) and content_sha256(again) == content_sha256(shop)


@pytest.mark.parametrize(
    "text, line, message",
    [
        ("2 2\n1 1 1 3\n", 0, "2 jobs, found 1 lines"),
        ("1 2\n1 0\n", 2, "at least one eligible machine"),
        ("1 2\n1 1 1 -3\n", 2, "processing time -3 is negative"),
        ("1 2\n1 1 3 3\n", 2, "machine 3 is not in 1..2"),
        ("1 2\n2 1 1 3\n", 2, "the line ends in operation 2"),
        ("1 2\n1 1 1 3 7\n", 2, "numbers too many"),
        ("1 2\n1 2 1 3 1 4\n", 2, "a machine listed twice"),
        ("1 x\n1 1 1 3\n", 1, "whole numbers of jobs and machines"),
    ],
)
def test_lying_fjs_is_refused_with_its_line(tmp_path, text, line, message):
    (tmp_path / "bad.fjs").write_text(text)
    with pytest.raises(FormatError, match=message) as caught:
        read_fjs(tmp_path / "bad.fjs")
    assert caught.value.line == line


@pytest.mark.parametrize(
    "name, text, line",
    [
        ("over-int64.fjs", f"1 1\n1 1 1 {2**63}\n", 2),  # was an OverflowError traceback
        ("over-2-53.fjs", f"1 1\n1 1 1 {2**53 + 1}\n", 2),  # was read, then lost a unit as a float start
        ("over-int64.txt", f"1\n2\n1\n3 {10**30}\n", 4),
        ("over-2-53.txt", f"1\n1\n1\n{2**53 + 1}\n", 4),
    ],
)
def test_a_processing_time_beyond_2_53_is_refused_with_its_line(tmp_path, name, text, line):
    (tmp_path / name).write_text(text)
    with pytest.raises(FormatError, match="processing times of at most 2\\^53") as caught:
        read_instance(tmp_path / name)
    assert caught.value.line == line


def test_times_that_add_up_beyond_2_53_are_refused_and_2_53_itself_reads(tmp_path):
    (tmp_path / "sum.fjs").write_text(f"1 1\n2 1 1 {2**53} 1 1 1\n")
    with pytest.raises(FormatError, match="sum over the operations .* is at most 2\\^53"):
        read_fjs(tmp_path / "sum.fjs")
    (tmp_path / "edge.fjs").write_text(f"1 1\n1 1 1 {2**53}\n")
    assert read_fjs(tmp_path / "edge.fjs").times.tolist() == [2**53]


@pytest.mark.parametrize(
    "text, line, message",
    [
        ("2\n2\n1 1\n3 0\n0 0\n", 5, "at least one eligible machine"),
        ("1\n2\n1\n3 -1\n", 4, "processing times >= 0"),
        ("1\n2\n2\n3 1\n", 0, "2 operations, found 1 rows"),
        ("1\n2\n1\n3 1 4\n", 4, "2 processing times"),
        ("2\n2\n1\n3 1\n", 3, "2 numbers of operations"),
        ("p sat 3 2\ne 1 2\n", 1, "Naderi's flexible job shop text form"),  # (a `p edge` or `p ds` graph is read as one)
    ],
)
def test_lying_naderi_text_is_refused_with_its_line(tmp_path, text, line, message):
    (tmp_path / "bad.txt").write_text(text)
    with pytest.raises(FormatError, match=message) as caught:
        read_instance(tmp_path / "bad.txt")
    assert caught.value.line == line


def test_naderi_reader_is_the_one_for_txt(tmp_path):
    (tmp_path / "n.txt").write_text("1\n2\n2\n3 0\n0 4\n")
    shop = read_naderi(tmp_path / "n.txt")
    assert shop.lists() == [[[(0, 3)], [(1, 4)]]] and _same(read_instance(tmp_path / "n.txt"), shop)


@pytest.mark.parametrize("text", ["3 2\n", "2 2\n1 2 3\n", "", "4\n2\n"])
def test_a_txt_that_is_neither_p_median_nor_facility_location_goes_to_naderis_reader(tmp_path, text):
    """Only a first line of two numbers followed by a line of four (p-median) or two (facility location) leaves
    Naderi's reader; anything else gets its line-naming refusal."""
    (tmp_path / "x.txt").write_text(text)
    with pytest.raises(FormatError, match="Naderi's flexible job shop text form|operations"):
        read_instance(tmp_path / "x.txt")
