// TestSupport module; see DESIGN.md.
