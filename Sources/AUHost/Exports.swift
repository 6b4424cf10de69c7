// `import AUHost` is all a host application writes: every layer comes with it.
@_exported import AUCore
@_exported import AUEngine
@_exported import AUFiles
@_exported import AUJACK
@_exported import AULV2
@_exported import AUMIDI
@_exported import AUMusicPlayer
@_exported import AUNative
@_exported import AUPresets
@_exported import AUSampler
@_exported import AUBridge
@_exported import AUAppleUnits
