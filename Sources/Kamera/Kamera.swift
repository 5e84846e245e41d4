@_exported import KameraCore
