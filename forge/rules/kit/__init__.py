"""The rules kit: data-driven pieces every hex-and-counter system shares (movement, zones of control, stacking and
limits, supply, retreat and advance, the entry schedule, victory points), on hex and square grids.

A system is this kit plus its YAML (``rules:`` and the other sections of :class:`forge.model.Game`).  Nothing here
asks which game it is: every difference between games is a field of the data.
"""
