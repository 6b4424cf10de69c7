internal import AUCore
internal import AUFiles

// AudioChannelLayout as AudioFile and ExtAudioFile read and write it: a value with Apple's
// tag, bitmap and channel labels, from and to libsndfile's channel maps.

/// An `AudioChannelLayout`: a tag, a bitmap or one label a channel.
struct ChannelLayout {
    var tag: AudioChannelLayoutTag
    var bitmap: UInt32 = 0
    var descriptions: [AudioChannelDescription] = []

    /// The labels of the layouts libsndfile's maps and Apple's tags share, in channel order.
    static let taggedLabels: [(tag: AudioChannelLayoutTag, labels: [AudioChannelLabel])] = {
        let (l, r, c, lfe, ls, rs, cs) = (kAudioChannelLabel_Left, kAudioChannelLabel_Right, kAudioChannelLabel_Center, kAudioChannelLabel_LFEScreen,
                                          kAudioChannelLabel_LeftSurround, kAudioChannelLabel_RightSurround, kAudioChannelLabel_CenterSurround)
        return [
            (kAudioChannelLayoutTag_Mono, [kAudioChannelLabel_Mono]), (kAudioChannelLayoutTag_Stereo, [l, r]),
            (kAudioChannelLayoutTag_MPEG_3_0_A, [l, r, c]), (kAudioChannelLayoutTag_MPEG_3_0_B, [c, l, r]),
            (kAudioChannelLayoutTag_Quadraphonic, [l, r, ls, rs]),
            (kAudioChannelLayoutTag_MPEG_4_0_A, [l, r, c, cs]), (kAudioChannelLayoutTag_MPEG_4_0_B, [c, l, r, cs]),
            (kAudioChannelLayoutTag_MPEG_5_0_A, [l, r, c, ls, rs]), (kAudioChannelLayoutTag_MPEG_5_0_B, [l, r, ls, rs, c]),
            (kAudioChannelLayoutTag_MPEG_5_0_C, [l, c, r, ls, rs]), (kAudioChannelLayoutTag_MPEG_5_0_D, [c, l, r, ls, rs]),
            (kAudioChannelLayoutTag_MPEG_5_1_A, [l, r, c, lfe, ls, rs]), (kAudioChannelLayoutTag_MPEG_5_1_B, [l, r, ls, rs, c, lfe]),
            (kAudioChannelLayoutTag_MPEG_5_1_C, [l, c, r, ls, rs, lfe]), (kAudioChannelLayoutTag_MPEG_5_1_D, [c, l, r, ls, rs, lfe]),
            (kAudioChannelLayoutTag_MPEG_6_1_A, [l, r, c, lfe, ls, rs, cs]),
            (kAudioChannelLayoutTag_MPEG_7_1_C, [l, r, c, lfe, ls, rs, kAudioChannelLabel_RearSurroundLeft, kAudioChannelLabel_RearSurroundRight]),
        ]
    }()

    /// Apple's label of a libsndfile position (the first position of a label, in
    /// `ChannelPosition.allCases`' order, is the one written).
    static func label(of position: ChannelPosition) -> AudioChannelLabel {
        switch position {
        case .mono: kAudioChannelLabel_Mono
        case .left, .frontLeft: kAudioChannelLabel_Left
        case .right, .frontRight: kAudioChannelLabel_Right
        case .center, .frontCenter: kAudioChannelLabel_Center
        case .rearCenter: kAudioChannelLabel_CenterSurround
        case .rearLeft: kAudioChannelLabel_LeftSurround
        case .rearRight: kAudioChannelLabel_RightSurround
        case .lowFrequency: kAudioChannelLabel_LFEScreen
        case .frontLeftOfCenter: kAudioChannelLabel_LeftCenter
        case .frontRightOfCenter: kAudioChannelLabel_RightCenter
        case .sideLeft: kAudioChannelLabel_LeftSurroundDirect
        case .sideRight: kAudioChannelLabel_RightSurroundDirect
        case .topCenter: kAudioChannelLabel_TopCenterSurround
        case .topFrontLeft: kAudioChannelLabel_VerticalHeightLeft
        case .topFrontRight: kAudioChannelLabel_VerticalHeightRight
        case .topFrontCenter: kAudioChannelLabel_VerticalHeightCenter
        case .topRearLeft: kAudioChannelLabel_TopBackLeft
        case .topRearRight: kAudioChannelLabel_TopBackRight
        case .topRearCenter: kAudioChannelLabel_TopBackCenter
        case .ambisonicW: kAudioChannelLabel_Ambisonic_W
        case .ambisonicX: kAudioChannelLabel_Ambisonic_X
        case .ambisonicY: kAudioChannelLabel_Ambisonic_Y
        case .ambisonicZ: kAudioChannelLabel_Ambisonic_Z
        }
    }

    /// Apple's default layout of a file without a channel map: Mono, Stereo, else an
    /// unknown layout of `channels`.
    static func standard(channels: Int) -> ChannelLayout {
        ChannelLayout(tag: channels == 1 ? kAudioChannelLayoutTag_Mono : channels == 2 ? kAudioChannelLayoutTag_Stereo
                      : kAudioChannelLayoutTag_Unknown | UInt32(channels))
    }

    /// The layout of a libsndfile channel map: its tag when it is a tagged one, else a label a channel.
    init(positions: [ChannelPosition]) {
        let labels = positions.map(Self.label(of:))
        if let tagged = Self.taggedLabels.first(where: { $0.labels == labels }) {
            self.init(tag: tagged.tag)
        } else {
            self.init(tag: kAudioChannelLayoutTag_UseChannelDescriptions, descriptions: labels.map {
                AudioChannelDescription(mChannelLabel: $0, mChannelFlags: 0, mCoordinates: (0, 0, 0))
            })
        }
    }

    init(tag: AudioChannelLayoutTag, bitmap: UInt32 = 0, descriptions: [AudioChannelDescription] = []) {
        self.tag = tag
        self.bitmap = bitmap
        self.descriptions = descriptions
    }

    /// The layout at `pointer`, `size` bytes; nil when they cannot hold it.
    static func load(_ pointer: UnsafeRawPointer, size: Int) -> ChannelLayout? {
        let header = MemoryLayout<AudioChannelLayout>.offset(of: \.mChannelDescriptions)!
        guard size >= header else { return nil }
        let tag = pointer.loadUnaligned(as: UInt32.self), bitmap = pointer.loadUnaligned(fromByteOffset: 4, as: UInt32.self)
        let count = tag == kAudioChannelLayoutTag_UseChannelDescriptions ? Int(pointer.loadUnaligned(fromByteOffset: 8, as: UInt32.self)) : 0
        let stride = MemoryLayout<AudioChannelDescription>.stride
        guard count <= 64, size >= header + count * stride else { return nil }
        return ChannelLayout(tag: tag, bitmap: bitmap, descriptions: (0..<count).map {
            pointer.loadUnaligned(fromByteOffset: header + $0 * stride, as: AudioChannelDescription.self)
        })
    }

    /// The bytes the layout takes (Apple's: the header and its descriptions).
    var byteSize: Int {
        MemoryLayout<AudioChannelLayout>.offset(of: \.mChannelDescriptions)! + descriptions.count * MemoryLayout<AudioChannelDescription>.stride
    }

    /// Writes the layout at `pointer` (``byteSize`` bytes).
    func store(_ pointer: UnsafeMutableRawPointer) {
        pointer.storeBytes(of: tag, as: UInt32.self)
        pointer.storeBytes(of: bitmap, toByteOffset: 4, as: UInt32.self)
        pointer.storeBytes(of: UInt32(descriptions.count), toByteOffset: 8, as: UInt32.self)
        let header = MemoryLayout<AudioChannelLayout>.offset(of: \.mChannelDescriptions)!
        for (index, description) in descriptions.enumerated() {
            pointer.storeBytes(of: description, toByteOffset: header + index * MemoryLayout<AudioChannelDescription>.stride, as: AudioChannelDescription.self)
        }
    }

    /// The channels the layout describes.
    var channelCount: Int {
        switch tag {
        case kAudioChannelLayoutTag_UseChannelDescriptions: descriptions.count
        case kAudioChannelLayoutTag_UseChannelBitmap: bitmap.nonzeroBitCount
        default: Int(tag & 0xFFFF)
        }
    }

    /// Each channel's label: from the descriptions, the bitmap (bit n is label n + 1) or a
    /// tag of ``taggedLabels``; nil for another tag (unknown, discrete…).
    var labels: [AudioChannelLabel]? {
        switch tag {
        case kAudioChannelLayoutTag_UseChannelDescriptions: descriptions.map(\.mChannelLabel)
        case kAudioChannelLayoutTag_UseChannelBitmap: (0..<32).filter { bitmap & (1 << $0) != 0 }.map { UInt32($0) + 1 }
        default: Self.taggedLabels.first { $0.tag == tag }?.labels
        }
    }

    /// The libsndfile channel map of the layout; nil when a channel has no position libsndfile names.
    var positions: [ChannelPosition]? {
        guard let labels else { return nil }
        let positions = labels.compactMap { label in ChannelPosition.allCases.first { Self.label(of: $0) == label } }
        return positions.count == labels.count ? positions : nil
    }
}
