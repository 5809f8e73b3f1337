// The device: connectivity flips, and where a push goes on arrival (display off or the extension).

extension DeviceWorld {
    mutating func connectivityFlips(index k: Int, at now: Int64) {
        online.toggle()
        note(.device, nil, online ? "online" : "offline")
        if k + 1 < timeline.flips.count {
            queue.schedule(at: timeline.flips[k + 1], .connectivityFlip(Int32(k + 1)))
        }
        if online { apnsFlushStore(at: now) }
    }

    /// A push arrives (timing rule 5): with display off it counts as delivered at once and no
    /// extension runs; elsewhere the extension starts.
    mutating func deviceReceives(copy c: Int32, at now: Int64) {
        let letter = Int(copies[Int(c)].letter)
        note(.device, letter, "push arrived")
        if alertsOff {
            present(letter: letter, at: now)
        } else {
            extensionStarts(copy: c, at: now)
        }
    }
}
