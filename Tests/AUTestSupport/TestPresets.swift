/// A chain of one native gain at -6.02 dB (half the amplitude), unsmoothed: the preset the
/// library's and the tool's live and offline tests share.
public let gainChain = """
    {"auhost": 1, "name": "Live gain",
     "nodes": [{"id": "gain", "unit": "aufx:gain:AUHs", "parameters": {"gain": -6.0206, "smoothing": 0}}],
     "chain": ["gain"]}
    """
