"""A pinhole camera with mild radial lens distortion, looking down at the table plane.

World coordinates are table coordinates (mm): x to the right, y down (towards seat 1 with the
default layout), z into the table, so a camera above the table has a negative z. The camera is
placed by where it looks (``target``), how far it is tilted from looking straight down
(``tilt_deg``), how high it is (``height_mm``) and which way it faces (``yaw_deg``: 0 puts the
bottom side of the table at the bottom of the picture).

Rendering draws an undistorted canvas (the picture plus a margin, ``canvas_homography()``) and
then bends it into the picture with ``bend()``; labels go through ``canvas_to_picture()`` or
``project()``, which apply the same distortion to points.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import cv2
import numpy as np


@dataclass(frozen=True)
class Camera:
    width: int
    height: int
    focal_px: float
    rotation: np.ndarray  # world -> camera, rows are the camera axes in world coordinates
    centre: np.ndarray  # camera position in world coordinates (mm)
    k1: float = 0.0
    k2: float = 0.0

    @classmethod
    def looking_at(cls, target: tuple[float, float], tilt_deg: float, height_mm: float,
                   yaw_deg: float, width: int = 1280, height: int = 720,
                   focal_px: float = 1000.0, k1: float = 0.0, k2: float = 0.0) -> Camera:
        if not 0 <= tilt_deg < 85:
            raise ValueError(f"tilt must be in [0, 85) degrees, not {tilt_deg}")
        tilt, yaw = math.radians(tilt_deg), math.radians(yaw_deg)
        cy, sy = math.cos(yaw), math.sin(yaw)

        def turn(v: tuple[float, float, float]) -> np.ndarray:  # about the vertical axis
            return np.array([cy * v[0] - sy * v[1], sy * v[0] + cy * v[1], v[2]])

        forward = turn((0.0, -math.sin(tilt), math.cos(tilt)))
        image_down = turn((0.0, 1.0, 0.0))
        image_down = image_down - image_down.dot(forward) * forward
        image_down /= np.linalg.norm(image_down)
        right = np.cross(image_down, forward)
        rotation = np.stack([right, image_down, forward])
        distance = height_mm / math.cos(tilt)
        centre = np.array([target[0], target[1], 0.0]) - distance * forward
        return cls(width, height, focal_px, rotation, centre, k1, k2)

    def framing(self, points: np.ndarray, fill: float) -> Camera:
        """The same camera (focal length, tilt, yaw, aim) moved along its axis so that
        ``points`` (table mm, Nx2) fill ``fill`` of the picture along its tighter direction."""
        forward = self.rotation[2]
        target = self.centre - self.centre[2] / forward[2] * forward
        distance = float(np.linalg.norm(target - self.centre))
        camera = self
        for _ in range(6):
            normalised = camera._normalised(points)
            span = max(np.abs(normalised[:, 0]).max() * self.focal_px / (self.width / 2),
                       np.abs(normalised[:, 1]).max() * self.focal_px / (self.height / 2))
            distance *= span / fill
            camera = Camera(self.width, self.height, self.focal_px, self.rotation,
                            target - distance * forward, self.k1, self.k2)
        return camera

    def moved(self, shift_mm: tuple[float, float], turn_deg: float,
              pivot: tuple[float, float]) -> Camera:
        """The same camera knocked on its stand: turned ``turn_deg`` about the vertical line
        through ``pivot`` (table mm) and moved ``shift_mm`` along the table, its height, tilt
        and lens unchanged."""
        a = math.radians(turn_deg)
        turn = np.array([[math.cos(a), -math.sin(a), 0.0], [math.sin(a), math.cos(a), 0.0],
                         [0.0, 0.0, 1.0]])
        about = np.array([pivot[0], pivot[1], 0.0])
        centre = about + turn @ (self.centre - about) + [shift_mm[0], shift_mm[1], 0.0]
        # a point of the table turned with the camera is seen where the point was before
        return Camera(self.width, self.height, self.focal_px, self.rotation @ turn.T, centre,
                      self.k1, self.k2)

    @property
    def matrix(self) -> np.ndarray:
        return np.array([[self.focal_px, 0, self.width / 2], [0, self.focal_px, self.height / 2],
                         [0, 0, 1]], dtype=np.float64)

    @property
    def dist_coeffs(self) -> np.ndarray:
        return np.array([self.k1, self.k2, 0.0, 0.0], dtype=np.float64)

    def _camera_coords(self, points: np.ndarray) -> np.ndarray:
        pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)
        world = np.column_stack([pts, np.zeros(len(pts))])
        return (world - self.centre) @ self.rotation.T

    def _normalised(self, points: np.ndarray) -> np.ndarray:
        cam = self._camera_coords(points)
        return cam[:, :2] / cam[:, 2:3]

    def homography(self) -> np.ndarray:
        """Table mm -> undistorted image pixels."""
        t = -self.rotation @ self.centre
        extrinsic = np.column_stack([self.rotation[:, 0], self.rotation[:, 1], t])
        h = self.matrix @ extrinsic
        return h / h[2, 2]

    def project(self, points: np.ndarray) -> np.ndarray:
        """Table mm (Nx2) -> distorted image pixels (Nx2), as they appear in the picture."""
        return self.distort(self._normalised(points))

    def distort(self, normalised: np.ndarray) -> np.ndarray:
        r2 = (normalised ** 2).sum(axis=1, keepdims=True)
        factor = 1 + self.k1 * r2 + self.k2 * r2 * r2
        return normalised * factor * self.focal_px + [self.width / 2, self.height / 2]

    def distort_pixels(self, pixels: np.ndarray) -> np.ndarray:
        """Undistorted image pixels (Nx2) -> where they appear in the distorted picture."""
        centre = np.array([self.width / 2, self.height / 2])
        return self.distort((np.asarray(pixels, np.float64).reshape(-1, 2) - centre)
                            / self.focal_px)

    @cached_property
    def _bending(self) -> tuple[int, tuple[np.ndarray, np.ndarray] | None]:
        """(pad, maps): ``cv2.remap`` maps that bend the undistorted canvas into the distorted
        picture, and the margin the canvas needs around the picture so that the bent picture
        never samples outside it. Worked out on a coarse grid and interpolated."""
        if self.k1 == 0 and self.k2 == 0:
            return 0, None
        step = 8
        gx, gy = np.meshgrid(np.arange(0, self.width + step, step, dtype=np.float64),
                             np.arange(0, self.height + step, step, dtype=np.float64))
        grid = np.stack([gx.ravel(), gy.ravel()], axis=1).reshape(-1, 1, 2)
        source = cv2.undistortPoints(grid, self.matrix, self.dist_coeffs, P=self.matrix)
        source = source.reshape(gx.shape + (2,))
        beyond = max(-source[..., 0].min(), -source[..., 1].min(),
                     source[..., 0].max() - self.width, source[..., 1].max() - self.height, 0)
        if not np.isfinite(beyond) or beyond > max(self.width, self.height) / 3:
            raise ValueError(f"lens distortion k1={self.k1}, k2={self.k2} is too strong for a "
                             f"focal length of {self.focal_px:.0f} px")
        pad = int(math.ceil(beyond)) + 2
        coarse = (source + pad).astype(np.float32)
        # Bilinear interpolation of the coarse grid at every pixel (pixel i is grid index i/8).
        at_x = np.broadcast_to(np.arange(self.width, dtype=np.float32) / step,
                               (self.height, self.width)).copy()
        at_y = np.broadcast_to(np.arange(self.height, dtype=np.float32)[:, None] / step,
                               (self.height, self.width)).copy()
        full = cv2.remap(coarse, at_x, at_y, cv2.INTER_LINEAR)
        maps = cv2.convertMaps(np.ascontiguousarray(full[..., 0]),
                               np.ascontiguousarray(full[..., 1]), cv2.CV_16SC2)
        return pad, maps

    @property
    def pad(self) -> int:
        """Margin (px) of the undistorted canvas around the picture on every side."""
        return self._bending[0]

    @property
    def canvas_size(self) -> tuple[int, int]:
        return self.width + 2 * self.pad, self.height + 2 * self.pad

    def canvas_homography(self) -> np.ndarray:
        """Table mm -> pixels of the undistorted canvas (the picture plus ``pad``)."""
        shift = np.array([[1, 0, self.pad], [0, 1, self.pad], [0, 0, 1]], dtype=np.float64)
        return shift @ self.homography()

    def canvas_to_picture(self, pixels: np.ndarray) -> np.ndarray:
        """Undistorted canvas pixels (Nx2) -> where they appear in the distorted picture."""
        return self.distort_pixels(np.asarray(pixels, np.float64).reshape(-1, 2) - self.pad)

    def bend(self, canvas: np.ndarray, nearest: bool = False) -> np.ndarray:
        """The distorted picture (width x height) from the undistorted canvas; ``nearest`` for
        label maps, whose values must not be blended."""
        pad, maps = self._bending
        if maps is None:
            return canvas
        return cv2.remap(canvas, maps[0], maps[1],
                         cv2.INTER_NEAREST if nearest else cv2.INTER_LINEAR,
                         borderMode=cv2.BORDER_REPLICATE)

    def to_dict(self) -> dict[str, Any]:
        return {"size": [self.width, self.height], "focal_px": round(self.focal_px, 2),
                "centre_mm": [round(float(v), 1) for v in self.centre],
                "rotation": [[round(float(v), 6) for v in row] for row in self.rotation],
                "k1": self.k1, "k2": self.k2}
