import KameraCore
