// Targets module; see DESIGN.md.
