"""WorthChart: each player's worth over the game as coloured lines, drawn with Kivy graphics."""

from __future__ import annotations

from kivy.graphics import Color, Line, Rectangle
from kivy.properties import ListProperty, NumericProperty
from kivy.uix.widget import Widget

__all__ = ["WorthChart", "chart_points"]


def chart_points(values: list[int], top: int, x: float, y: float, width: float, height: float) -> list[float]:
    """Screen coordinates (x0, y0, x1, y1, ...) of a series scaled into the box; pure."""
    if not values:
        return []
    top = max(top, 1)
    if len(values) == 1:
        values = values * 2
    step = width / (len(values) - 1)
    return [c for i, v in enumerate(values) for c in (x + i * step, y + height * max(v, 0) / top)]


class WorthChart(Widget):
    """``lines``: [{"player", "colour", "points"}]; ``top``: the highest worth (the top of the chart)."""

    lines = ListProperty([])
    top_value = NumericProperty(0)
    axis_colour = ListProperty([0.5, 0.5, 0.5, 1])
    thickness = NumericProperty(2.5)

    def on_lines(self, *_):
        self.draw()

    def on_size(self, *_):
        self.draw()

    def on_pos(self, *_):
        self.draw()

    def draw(self) -> None:
        self.canvas.clear()
        with self.canvas:
            Color(*self.axis_colour)
            Rectangle(pos=(self.x, self.y), size=(self.width, 1.5))
            Rectangle(pos=(self.x, self.y), size=(1.5, self.height))
            for line in self.lines:
                pts = chart_points(
                    line["points"], int(self.top_value), self.x + 2, self.y + 2, self.width - 4, self.height - 6
                )
                if len(pts) >= 4:
                    Color(*line["colour"])
                    Line(points=pts, width=self.thickness, joint="round", cap="round")
