// What a team observed of its own fleet, typed: the observables `pushsim calibrate` fits, each with its sample size.
import PushSimCore

/// Shares of one partition of items (pushes by console status, gaps by size), with the number
/// of items they were counted over.
package struct ObservedShares: Equatable, Sendable {
    package struct Share: Equatable, Sendable {
        package var category: String
        package var value: Double
        package init(category: String, value: Double) { self.category = category; self.value = value }
    }

    /// In the order of the group's categories (not the file's), so a result never depends on it.
    package var shares: [Share]
    /// Items counted (pushes, gaps): the sample size of every share.
    package var sampleSize: Double

    package init(shares: [Share], sampleSize: Double) { self.shares = shares; self.sampleSize = sampleSize }
}

/// Gaps found per push logged, over the whole log (`hour` nil) or in one hour of the day.
package struct ObservedGapsPerPush: Equatable, Sendable {
    /// 0…23, the hour of day of the push's arrival at the extension; nil: every hour.
    package var hour: Int?
    package var value: Double
    /// Pushes logged in that hour.
    package var pushes: Double

    package init(hour: Int?, value: Double, pushes: Double) { self.hour = hour; self.value = value; self.pushes = pushes }
}

/// Re-requests XIVA received per minute, over `minutes` minutes, from a fleet of `devices`.
package struct ObservedRate: Equatable, Sendable {
    package var perMinute: Double
    package var minutes: Double
    package var devices: Double

    package init(perMinute: Double, minutes: Double, devices: Double) {
        self.perMinute = perMinute; self.minutes = minutes; self.devices = devices
    }
}

/// Everything an observation file gives; each part is optional, at least one is needed.
package struct CalibrationObservations: Equatable, Sendable {
    package var console: ObservedShares?
    package var gapSizes: ObservedShares?
    package var gapsPerPush: [ObservedGapsPerPush] = []
    package var reRequestsPerMinute: ObservedRate?

    package init(console: ObservedShares? = nil, gapSizes: ObservedShares? = nil,
                 gapsPerPush: [ObservedGapsPerPush] = [], reRequestsPerMinute: ObservedRate? = nil) {
        self.console = console; self.gapSizes = gapSizes
        self.gapsPerPush = gapsPerPush; self.reRequestsPerMinute = reRequestsPerMinute
    }

    package var isEmpty: Bool { console == nil && gapSizes == nil && gapsPerPush.isEmpty && reRequestsPerMinute == nil }

    /// Apple's console statuses (docs/model.md §2), the keys of `apns_console.shares`. A push
    /// pushed out of the one-slot store (`replaced_in_storage`) shows its Stored – Device
    /// Offline data point and nothing after it, so it is counted there, as a console shows it.
    package static let consoleCategories = [
        "delivered", "delivered_from_storage", "stored_device_offline", "stored_power_considerations",
        "discarded_token_unregistered", "discarded_expired", "discarded_disabled",
    ]

    /// The gap-size buckets of the hourly summary (`gaps_1` … `gaps_65_up`), the keys of `gap_sizes.shares`.
    package static let gapSizeCategories = ExtensionLogSummary.gapBuckets.indices.map(ExtensionLogSummary.bucketName)

    /// The console's counts of an arm, by ``consoleCategories``: what a team's console would
    /// show for the pushes APNs accepted.
    package static func consoleCounts(_ c: APNsConsoleCounters) -> [Int] {
        [c.delivered, c.deliveredFromStorage, c.storedDeviceOffline + c.replacedInStorage, c.storedPowerConsiderations,
         c.discardedTokenUnregistered, c.discardedExpired, c.discardedDisabled]
    }
}
