"""Times the SimPy peer (chain.py) and PushSim on the same scenario, in one run, and prints the ratio.

Usage, from the repository's root:
    pip install simpy==4.1.2 pyyaml
    swift build -c release --product pushsim
    python3 Tests/Peers/simpy/compare.py [SCENARIO] [--devices N]      (default: quickstart, 300)

Both simulate the same resolved scenario (`pushsim validate --print`), both arms, on one core;
the figure is letters simulated per second of wall clock (a letter counts once, although both
arms simulate it), each the best of three. PushSim's time is measured around a whole process
(start-up and reading included) on the same number of devices, so small sizes understate it.
The date, the machine and its load are printed with the result: quote them with the ratio.
"""
import json
import os
import platform
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import chain  # noqa: E402  (the peer, beside this file)


def machine():
    model = "unknown CPU"
    try:
        with open("/proc/cpuinfo") as f:
            model = next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return f"{platform.system()} {platform.machine()}, {model}, {os.cpu_count()} cores, 1-minute load {load:.2f}"


def losses(runs):
    return ", ".join("%s %.2f %%" % (r["queue"], 100 * r["loss_rate"]) for r in runs)


def best_of(n, run):
    times, result = [], None
    for _ in range(n):
        start = time.perf_counter()
        result = run()
        times.append(time.perf_counter() - start)
    return min(times), result


def main():
    args = sys.argv[1:]
    devices = "300"
    if "--devices" in args:
        i = args.index("--devices")
        devices = args[i + 1]
        del args[i:i + 2]
    scenario = args[0] if args else "scenarios/quickstart.yaml"
    pushsim = os.environ.get("PUSHSIM", ".build/release/pushsim")
    overrides = ["--set", f"devices={devices}"]
    resolved = subprocess.run([pushsim, "validate", scenario, "--print", *overrides], check=True,
                              capture_output=True, text=True).stdout
    with tempfile.NamedTemporaryFile("w", suffix=".yaml", delete=False) as f:
        f.write(resolved)
        path = f.name
    import yaml
    parsed = yaml.safe_load(resolved)
    arms = {"off": [False], "on": [True]}.get(parsed["queue"]["mode"], [False, True])

    def peer():
        return [chain.Chain(parsed, on).run(int(devices)).summary() for on in arms]

    def ours():
        out = subprocess.run([pushsim, "run", scenario, *overrides, "--json", "--no-write", "--jobs", "1"],
                             check=True, capture_output=True, text=True).stdout
        return json.loads(out)["runs"]

    simpy_seconds, simpy_runs = best_of(3, peer)
    pushsim_seconds, pushsim_runs = best_of(3, ours)
    os.unlink(path)
    simpy_rate = simpy_runs[0]["letters"] / simpy_seconds
    pushsim_rate = pushsim_runs[0]["letters"] / pushsim_seconds
    print(f"date     {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
    print(f"machine  {machine()}")
    print(f"scenario {scenario} with {devices} devices, arms {', '.join(r['queue'] for r in pushsim_runs)}; "
          f"simpy {chain.simpy.__version__}, python {platform.python_version()}")
    print(f"SimPy    {simpy_runs[0]['letters']:>10,} letters in {simpy_seconds:8.3f} s = {simpy_rate:>12,.0f} letters/s   "
          "loss " + losses(simpy_runs))
    print(f"PushSim  {pushsim_runs[0]['letters']:>10,} letters in {pushsim_seconds:8.3f} s = {pushsim_rate:>12,.0f} letters/s   "
          "loss " + losses(pushsim_runs))
    print(f"ratio    PushSim / SimPy = {pushsim_rate / simpy_rate:.0f}x (letters per second, one core each)")


if __name__ == "__main__":
    main()
