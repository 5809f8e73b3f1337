"""A SimPy model of PushSim's chain (mail backend -> XIVA -> APNs -> device -> extension -> user).

A peer for timing and for a second opinion, not a product path: it follows the timing rules of
the scenario contract (docs/scenarios.md, section 3) for the version-1 keys, both arms, with
common random numbers (each device draws its letters and connectivity once; both arms replay
them). It is written the way a SimPy user would write it -- one process per letter and per
stored push, `env.timeout` for every delay -- so that its speed is what "SimPy" means in the
comparison. Its random streams are Python's, not PushSim's: results agree statistically, not
byte for byte.

Simplifications, all small next to the statistical noise of a compare run: the first period of a
non-exponential online/offline law is drawn as a uniform fraction of an ordinary period (the
residual of an exponential is exact); a letter's lost-cause precedence follows the contract's
order with one bookkeeping flag per kind.

Usage (normally through compare.py): python3 chain.py RESOLVED.yaml   -> prints a JSON summary
"""
import bisect
import json
import math
import random
import sys

import simpy
import yaml

US = {"us": 1, "ms": 1_000, "s": 1_000_000, "m": 60_000_000, "h": 3_600_000_000, "d": 86_400_000_000}
FOREVER = float("inf")
Z99 = 2.3263478740408408


def duration(text):
    text = str(text).strip()
    if text == "forever":
        return FOREVER
    if text in ("0", "0.0"):
        return 0
    total, number, unit = 0.0, "", ""
    for ch in text + " ":
        if ch.isdigit() or ch == ".":
            if unit:
                total += float(number) * US[unit]
                number, unit = "", ""
            number += ch
        elif ch.isalpha():
            unit += ch
        else:
            if unit:
                total += float(number) * US[unit]
    return int(round(total))


def distribution(text):
    """A sampler: rng -> microseconds (int), for the contract's four laws."""
    text = str(text).strip()
    if text == "forever":
        return None
    if "(" not in text:
        value = duration(text)
        return lambda rng: value
    name, args = text.split("(", 1)
    params = [duration(a) for a in args.rstrip(")").split(",")]
    if name == "exponential":
        mean = params[0]
        return lambda rng: int(round(rng.expovariate(1.0 / mean)))
    if name == "uniform":
        lo, hi = params
        return lambda rng: int(round(lo + (hi - lo) * rng.random()))
    median, p99 = params
    sigma = math.log(p99 / median) / Z99
    return lambda rng: int(round(median * math.exp(sigma * rng.gauss(0.0, 1.0))))


def mean_of(text):
    text = str(text).strip()
    if "(" not in text:
        return duration(text)
    name, args = text.split("(", 1)
    params = [duration(a) for a in args.rstrip(")").split(",")]
    if name == "exponential":
        return params[0]
    if name == "uniform":
        return (params[0] + params[1]) / 2
    sigma = math.log(params[1] / params[0]) / Z99
    return params[0] * math.exp(sigma * sigma / 2)


def rate(text):
    count, per = str(text).split("/")
    per_us = US[per] if per in US else duration(per)
    return float(count) / per_us


def probability(text):
    text = str(text).strip()
    return float(text[:-1]) / 100 if text.endswith("%") else float(text)


class Chain:
    """One arm of one scenario: every device's processes in one SimPy environment."""

    CAUSES = ["xiva_drop", "network_loss", "apns_replaced", "apns_expired", "alerts_off",
              "undetected_gap", "retention_expired", "extension_timeout", "unfinished"]

    def __init__(self, s, queue_on):
        self.s, self.queue_on = s, queue_on
        self.seed = int(s["seed"])
        self.duration, self.end = duration(s["duration"]), duration(s["duration"]) + duration(s["drain"])
        x, a, dev, ext, q = s["xiva"], s["apns"], s["device"], s["extension"], s["queue"]
        self.rate = rate(s["mail"]["rate"])
        self.drop, self.xiva_latency = probability(x["drop"]), distribution(x["latency"])
        self.retention = duration(x["retention"])
        self.request_latency, self.request_error = distribution(x["request_latency"]), probability(x["request_error"])
        self.resend_latency = distribution(x["resend_latency"])
        self.loss, self.apns_latency, self.expiration = probability(a["loss"]), distribution(a["latency"]), duration(a["expiration"])
        self.alerts_off, self.clear_after = probability(dev["alerts_off"]), distribution(dev["clear_after"])
        self.deadline, self.processing = duration(ext["deadline"]), distribution(ext["processing"])
        self.repeat_max, self.collapse = int(q["repeat_max_count"]), q["collapse_id"] in (True, "true")
        self.literal = q["client"] == "literal"
        c = s.get("connectivity") or {}
        self.online_law, self.offline_law = c.get("online"), c.get("offline")
        self.windows = c.get("windows") or []
        self.letters = self.delivered = self.summarized = self.duplicates = 0
        self.causes = dict.fromkeys(self.CAUSES, 0)

    # -- the world a device lives in, drawn once per device (both arms replay it) --

    def rng(self, device, purpose):
        return random.Random(f"{self.seed}/{device}/{purpose}")

    def offline_intervals(self, device):
        rng, out = self.rng(device, "connectivity"), []
        if self.online_law:
            on, off = distribution(self.online_law), distribution(self.offline_law)
            m_on, m_off = mean_of(self.online_law), mean_of(self.offline_law)
            online = rng.random() < m_on / (m_on + m_off)
            law = self.online_law if online else self.offline_law
            first = (on if online else off)(rng)
            t = first if "exponential" in str(law) else int(first * rng.random())
            if not online:
                out.append((0, t))
            while t < self.end:
                online = not online
                length = (on if online else off)(rng)
                if not online:
                    out.append((t, t + length))
                t += length
        for w in self.windows:
            start, end = duration(w["start"]), duration(w["end"])
            every = duration(w["every"]) if "every" in w else None
            if every is None:
                out.append((start, end))
            else:
                k = -((start + every) // every) - 1
                while start + k * every < self.end:
                    if end + k * every > 0:
                        out.append((start + k * every, end + k * every))
                    k += 1
        out.sort()
        merged = []
        for a, b in out:
            if merged and a <= merged[-1][1]:
                merged[-1] = (merged[-1][0], max(merged[-1][1], b))
            else:
                merged.append((a, b))
        return merged

    def draw_letters(self, device):
        rng, x, a, e = (self.rng(device, p) for p in ("letters", "xiva", "apns", "extension"))
        letters, t = [], 0.0
        while True:
            t += rng.expovariate(self.rate)
            if t >= self.duration:
                return letters
            letters.append({"time": int(round(t)), "dropped": x.random() < self.drop, "xiva": self.xiva_latency(x),
                            "lost": a.random() < self.loss, "apns": self.apns_latency(a), "processing": self.processing(e)})

    # -- one arm --

    def run(self, devices):
        env = simpy.Environment()
        self.env = env
        for d in range(devices):
            Device(self, d, env)
        env.run(until=self.end)
        for dev in self.device_list:
            dev.close()
        return self

    @property
    def device_list(self):
        return Device.all.get(id(self), [])

    def summary(self):
        lost = self.letters - self.delivered - self.summarized
        return {"queue": "on" if self.queue_on else "off", "letters": self.letters, "delivered": self.delivered,
                "summarized": self.summarized, "lost": lost, "duplicates": self.duplicates,
                "loss_rate": lost / self.letters if self.letters else 0.0, "causes": self.causes}


class Device:
    all = {}

    def __init__(self, chain, d, env):
        Device.all.setdefault(id(chain), []).append(self)
        self.c, self.env, self.d = chain, env, d
        self.offline = chain.offline_intervals(d)
        self.starts = [a for a, _ in self.offline]
        self.alerts_off = chain.rng(d, "settings").random() < chain.alerts_off
        self.req = chain.rng(d, "requests")
        self.user = chain.rng(d, "user")
        self.store_rng = chain.rng(d, "store")
        self.letters = chain.draw_letters(d)
        for L in self.letters:
            L.update(delivered=False, summarized=False, shown_until=-1, first_fate=None, resent_fate=None,
                     gap_fate=None, pending=0, position=0)
        self.by_position = {}
        self.next_position = 1
        self.last_position = 0
        self.stored = None          # (copy, expiry)
        self.pending_requests = 0
        chain.letters += len(self.letters)
        for i in range(len(self.letters)):
            env.process(self.letter(i))
        env.process(self.connectivity())

    def online(self, t):
        k = bisect.bisect_right(self.starts, t) - 1
        return not (k >= 0 and self.offline[k][0] <= t < self.offline[k][1])

    def letter(self, i):
        L = self.letters[i]
        yield self.env.timeout(L["time"])
        if L["dropped"]:
            return
        L["position"] = self.next_position
        self.by_position[self.next_position] = i
        self.next_position += 1
        L["pending"] += 1
        yield self.env.timeout(L["xiva"])
        if L["lost"]:
            L["pending"] -= 1
            L["first_fate"] = "network_loss"
            return
        self.env.process(self.travel({"letter": i, "resend": False, "arrival": self.env.now}, L["apns"]))

    def travel(self, copy, latency):
        """APNs -> device: due after `latency`; offline then -> the one-slot store."""
        yield self.env.timeout(latency)
        if self.online(self.env.now):
            self.letters[copy["letter"]]["pending"] -= 1
            self.arrive(copy)
        else:
            expiry = copy.get("expiry", copy["arrival"] + self.c.expiration)
            self.store(copy, expiry)

    def fate(self, copy, cause):
        L = self.letters[copy["letter"]]
        L["pending"] -= 1
        L["resent_fate" if copy["resend"] else "first_fate"] = cause

    def store(self, copy, expiry):
        if self.c.expiration == 0 or expiry <= self.env.now:
            self.fate(copy, "apns_expired")
            return
        copy["expiry"] = expiry
        if self.stored is not None:
            self.fate(self.stored, "apns_replaced")
        self.stored = copy
        self.env.process(self.expire(copy, expiry))

    def expire(self, copy, expiry):
        if expiry == FOREVER:
            return
        yield self.env.timeout(expiry - self.env.now)
        if self.stored is copy:
            self.stored = None
            self.fate(copy, "apns_expired")

    def connectivity(self):
        for _, back in self.offline:
            if back >= self.c.end:
                return
            if back > self.env.now:
                yield self.env.timeout(back - self.env.now)
            if self.stored is not None and self.online(self.env.now):
                copy, self.stored = self.stored, None
                self.env.process(self.travel(copy, self.c.apns_latency(self.store_rng)))

    # -- the device and its extension --

    def arrive(self, copy):
        i = copy["letter"]
        L = self.letters[i]
        if self.alerts_off:
            self.present(i)
            return
        processing = L["processing"] if not copy["resend"] else self.c.processing(self.req)
        if not self.c.queue_on:
            self.env.process(self.show_after(i, min(processing, self.c.deadline)))
            return
        gap = []
        p = L["position"]
        if self.last_position == 0:
            self.last_position = p
        elif p - self.last_position - 1 > 0:
            gap = [self.by_position[q] for q in range(self.last_position + 1, p)]
            self.last_position = p
        elif not self.c.literal:
            self.last_position = max(self.last_position, p)
        self.env.process(self.extension(i, gap, processing))

    def show_after(self, i, delay):
        self.letters[i]["pending"] += 1
        yield self.env.timeout(delay)
        self.letters[i]["pending"] -= 1
        self.present(i)

    def extension(self, i, gap, processing):
        c, arrival = self.c, self.env.now
        involved = [i] + gap
        for j in involved:
            self.letters[j]["pending"] += 1
        def done():
            for j in involved:
                self.letters[j]["pending"] -= 1

        if processing > c.deadline:
            yield self.env.timeout(c.deadline)
            done()
            self.present(i)
            for j in gap:
                self.letters[j]["gap_fate"] = "extension_timeout"
            return
        yield self.env.timeout(processing)
        if not gap:
            done()
            self.present(i)
            return
        if len(gap) > c.repeat_max:
            done()
            self.summary(i, gap)
            return
        latency, failed = c.request_latency(self.req), self.req.random() < c.request_error
        answer_at, deadline_at = self.env.now + latency, arrival + c.deadline
        waiting = answer_at <= deadline_at
        if not waiting:
            # Rule 6: the original content at the deadline; the re-request still takes effect.
            yield self.env.timeout(deadline_at - self.env.now)
            self.present(i)
        yield self.env.timeout(answer_at - self.env.now)
        done()
        if failed:
            if waiting:
                self.summary(i, gap)
            else:
                for j in gap:
                    self.letters[j]["gap_fate"] = "extension_timeout"
            return
        resend = c.resend_latency(self.req)
        for j in gap:
            L = self.letters[j]
            if self.env.now < L["time"] + c.retention:
                L["pending"] += 1
                self.env.process(self.resent(j, resend))
            else:
                L["gap_fate"] = "retention_expired"
        if waiting:
            self.present(i)

    def resent(self, j, delay):
        yield self.env.timeout(delay)
        self.env.process(self.travel({"letter": j, "resend": True, "arrival": self.env.now}, self.c.apns_latency(self.req)))

    def summary(self, i, gap):
        for j in [i] + gap:
            self.letters[j]["summarized"] = True

    def present(self, i):
        L, now = self.letters[i], self.env.now
        if L["delivered"]:
            if self.c.queue_on and self.c.collapse and now < L["shown_until"]:
                return
            self.c.duplicates += 1
        else:
            L["delivered"] = True
        clear = self.c.clear_after(self.user) if self.c.clear_after else None
        L["shown_until"] = FOREVER if clear is None else now + clear

    def close(self):
        c = self.c
        for L in self.letters:
            if L["delivered"]:
                c.delivered += 1
                continue
            if L["summarized"]:
                c.summarized += 1
                continue
            if L["dropped"]:
                cause = "xiva_drop"
            elif c.queue_on and self.alerts_off:
                cause = "alerts_off"
            elif L["pending"] > 0 or (self.stored is not None and self.letters[self.stored["letter"]] is L):
                cause = "unfinished"
            elif c.queue_on:
                cause = L["resent_fate"] or L["gap_fate"] or "undetected_gap"
            else:
                cause = L["first_fate"] or "unfinished"
            c.causes[cause] += 1


def main(path):
    with open(path) as f:
        scenario = yaml.safe_load(f)
    mode = scenario["queue"]["mode"]
    arms = {"off": [False], "on": [True]}.get(mode, [False, True])
    devices = int(scenario["devices"])
    print(json.dumps({"scenario": scenario["name"], "runs": [Chain(scenario, on).run(devices).summary() for on in arms]}))


if __name__ == "__main__":
    main(sys.argv[1])
