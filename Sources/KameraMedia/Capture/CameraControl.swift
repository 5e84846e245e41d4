/// One control a V4L2 camera offers (brightness, focus, exposure, …), as its driver describes
/// it in answer to VIDIOC_QUERYCTRL, with its current value.
public struct CameraControl: Sendable, Hashable, Codable {
    /// What kind of value the control takes (V4L2's control types).
    public enum Kind: String, Sendable, Hashable, Codable {
        case integer, boolean, menu, button, integer64, string, bitmask, integerMenu, other

        /// From `v4l2_ctrl_type`.
        public init(v4l2Type: UInt32) {
            switch v4l2Type {
            case 1: self = .integer
            case 2: self = .boolean
            case 3: self = .menu
            case 4: self = .button
            case 5: self = .integer64
            case 7: self = .string
            case 8: self = .bitmask
            case 9: self = .integerMenu
            default: self = .other
            }
        }
    }

    /// A choice of a menu control: its index (the value to set) and its name (or, for integer
    /// menus, its number as text).
    public struct MenuItem: Sendable, Hashable, Codable {
        public var index: Int64
        public var name: String

        public init(index: Int64, name: String) {
            self.index = index
            self.name = name
        }
    }

    /// The V4L2 control ID (`V4L2_CID_…`).
    public var id: CameraControlID
    /// The driver's name for it ("Focus, Automatic Continuous").
    public var name: String
    public var kind: Kind
    public var minimum: Int64
    public var maximum: Int64
    public var step: Int64
    public var defaultValue: Int64
    /// The value when the device was asked (the default when it cannot be read).
    public var value: Int64
    /// A menu's choices (menus may skip indices).
    public var menu: [MenuItem]
    /// The driver refuses to set it.
    public var isReadOnly: Bool
    /// Set but without effect now, e.g. the manual focus while autofocus is on.
    public var isInactive: Bool

    public init(
        id: CameraControlID, name: String, kind: Kind, minimum: Int64, maximum: Int64, step: Int64, defaultValue: Int64,
        value: Int64, menu: [MenuItem] = [], isReadOnly: Bool = false, isInactive: Bool = false
    ) {
        self.id = id
        self.name = name
        self.kind = kind
        self.minimum = minimum
        self.maximum = maximum
        self.step = step
        self.defaultValue = defaultValue
        self.value = value
        self.menu = menu
        self.isReadOnly = isReadOnly
        self.isInactive = isInactive
    }

    /// A control from the fields of a `v4l2_queryctrl` (flags as V4L2 defines them: 0x04
    /// read-only, 0x10 inactive) and the menu items the driver listed.
    public init(
        queried id: UInt32, type: UInt32, name: String, minimum: Int64, maximum: Int64, step: Int64, defaultValue: Int64,
        value: Int64, flags: UInt32, menu: [MenuItem] = []
    ) {
        self.init(
            id: CameraControlID(rawValue: id), name: name, kind: Kind(v4l2Type: type), minimum: minimum, maximum: maximum,
            step: step, defaultValue: defaultValue, value: value, menu: menu, isReadOnly: flags & 0x04 != 0,
            isInactive: flags & 0x10 != 0)
    }

    /// Whether `candidate` is a value the driver accepts: in range, on a step, a listed menu index.
    public func accepts(_ candidate: Int64) -> Bool {
        guard candidate >= minimum, candidate <= maximum else { return false }
        switch kind {
        case .menu, .integerMenu: return menu.contains { $0.index == candidate }
        case .integer, .integer64: return step <= 1 || (candidate - minimum) % step == 0
        default: return true
        }
    }

    /// `candidate` moved into range and onto the nearest step.
    public func nearestAccepted(_ candidate: Int64) -> Int64 {
        let clamped = min(max(candidate, minimum), maximum)
        guard step > 1, kind == .integer || kind == .integer64 else { return clamped }
        let steps = ((clamped - minimum) + step / 2) / step
        return min(minimum + steps * step, maximum)
    }
}
