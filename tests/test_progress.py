"""Feedback on long work: a live line on a terminal, a plain line now and then in a log, k/N in `report`."""

import io
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from tyrsim.cli import main
from tyrsim.core.run import progress
from tyrsim.core.run.progress import Progress, clock_text


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


class Terminal(io.StringIO):
    def isatty(self):
        return True


def test_a_log_gets_a_plain_line_at_most_every_interval():
    clock, log = Clock(), io.StringIO()
    meter = Progress(40, "games", stream=log, clock=clock)
    for _ in range(40):
        clock.now += 3  # a task every 3 s: 120 s in all
        meter.update(1, 250)
    meter.close()
    lines = log.getvalue().splitlines()
    assert "\r" not in log.getvalue()
    assert len(lines) == 4  # at 30, 60, 90 and 120 s
    assert lines[0] == "  tasks 10/40, 83 games/s, about 01:30 left"
    assert lines[-1] == "  tasks 40/40, 83 games/s, about 00:00 left"


def test_short_work_in_a_log_prints_nothing():
    clock, log = Clock(), io.StringIO()
    meter = Progress(5, "games", stream=log, clock=clock)
    for _ in range(5):
        clock.now += 5
        meter.update(1, 10)
    meter.close()
    assert log.getvalue() == ""


def test_a_terminal_gets_a_progress_bar_with_the_trials_a_second_and_silence_when_disabled():
    screen = Terminal()
    meter = Progress(2, "fights", stream=screen)
    meter.update(1, 100)
    meter.update(1, 100)
    meter.close()
    drawn = screen.getvalue()
    assert "\r" in drawn and drawn.endswith("\n")  # redrawn in place, left standing at the end
    last = drawn.rstrip("\n").split("\r")[-1]
    assert "100%" in last and "2/2" in last and re.search(r"[\d,.]+ fights/s", last), last
    quiet = Terminal()
    meter = Progress(2, "fights", stream=quiet, enabled=False)
    meter.update(2, 200)
    meter.close()
    assert quiet.getvalue() == ""


def test_steps_read_back_from_the_store_do_not_count_in_the_bars_rate():
    screen = Terminal()
    meter = Progress(10, "games", stream=screen)
    meter.skip(8)
    assert meter.bar.initial == 8 and meter.bar.n == 8
    meter.update(2, 50)
    meter.close()
    assert "10/10" in screen.getvalue()


def test_a_slow_rate_reads_in_two_significant_digits_not_zero():
    from tyrsim.core.run.progress import rate_text

    assert rate_text(0.4) == "0.4" and rate_text(3.14159) == "3.1" and rate_text(12_345.6) == "12,346"
    assert rate_text(0) == "0"


def test_clock_text():
    assert clock_text(80) == "01:20"
    assert clock_text(3 * 3600 + 62) == "3:01:02"
    assert clock_text(float("nan")) == "--:--"


SCENARIO = """
game = "tyranno-ex"
analysis = "combat"
seed = 1
default_report = true
title = "{title}"
[args]
attacker_strength = [3]
attacker_dice = [2]
defender_strength = [1]
defender_dice = [7]
method = "mc"
fights = 1000
[sweep.rules]
tie_rule = ["reroll", "defender"]
"""


def test_run_and_combat_print_plain_progress_lines_in_a_log(tmp_path, monkeypatch):
    monkeypatch.setattr(progress, "LOG_INTERVAL", 0.0)  # instead of waiting 30 s
    path = tmp_path / "s.toml"
    path.write_text(SCENARIO.format(title="t"))
    result = CliRunner().invoke(main, ["run", str(path), "--out", str(tmp_path / "o"), "--jobs", "1"])
    assert result.exit_code == 0, result.output
    assert re.search(r"^  tasks 2/2, [\d,]+ fights/s, about 00:00 left$", result.stderr, re.M), result.stderr
    result = CliRunner().invoke(main, ["combat", "--attacker-strength", "3", "--attacker-dice", "2",
                                       "--defender-strength", "1", "--defender-dice", "7", "--method", "mc",
                                       "--fights", "100000", "--format", "csv"])
    assert result.exit_code == 0, result.output
    assert re.search(r"^  fights 100,000/100,000, [\d,]+ fights/s, about 00:00 left$", result.stderr, re.M)
    assert "\r" not in result.stderr


@pytest.mark.slow
def test_report_numbers_each_scenario_and_ends_with_a_summary(tmp_path, monkeypatch):
    import tyrsim.core.run.scenario

    names = ("first", "second", "third")
    files = []
    for name in names:
        path = tmp_path / f"{name}.toml"
        path.write_text(SCENARIO.format(title=f"The {name} one"))
        files.append(path)
    monkeypatch.setattr(tyrsim.core.run.scenario, "bundled_scenarios", lambda: files)
    out = tmp_path / "reports"
    result = CliRunner().invoke(main, ["report", "--out", str(out), "--jobs", "1"])
    assert result.exit_code == 0, result.output
    lines = result.stderr.splitlines()  # (combat odds compile nothing ahead)
    assert len(lines) == 6, lines
    starts = [lines.index(f"[{k}/3] {name}: The {name} one") for k, name in enumerate(names, 1)]
    ends = [next(i for i, line in enumerate(lines) if re.fullmatch(rf"\[{k}/3\] {name} \.\.\. \d+\.\d s", line))
            for k, name in enumerate(names, 1)]
    assert starts[0] < starts[1] < starts[2] and all(s < e for s, e in zip(starts, ends, strict=True))
    assert starts[2] > min(ends[:2])  # two scenarios at a time: the third starts when one of them is done
    summary = result.stdout.strip().splitlines()[-1]
    assert re.fullmatch(rf"wrote {re.escape(str(out / 'index.html'))}: 3 scenarios in \d\d:\d\d \(\d+ s\)", summary)
    assert Path(out / "index.html").exists()


def test_a_labelled_meter_starts_its_lines_with_the_label_and_never_redraws():
    clock, log = Clock(), Terminal()  # even on a terminal: labelled meters share the stream
    meter = Progress(4, "games", stream=log, clock=clock, label="[2/3] second")
    clock.now += 30
    meter.update(1, 30)
    meter.close()
    assert log.getvalue() == "  [2/3] second: tasks 1/4, 1 games/s, about 01:30 left\n"


def test_steps_read_from_the_store_do_not_shorten_the_time_left():
    clock, log = Clock(), io.StringIO()
    meter = Progress(20, "games", stream=log, clock=clock)
    meter.skip(10)  # half the tasks were stored: no time at all
    clock.now += 30
    meter.update(2, 100)  # 2 tasks in 30 s: the other 8 need 2 minutes
    assert log.getvalue() == "  tasks 12/20, 3.3 games/s, about 02:00 left\n"
