// Reactor module; see DESIGN.md.
