// Plugins module; see DESIGN.md.
