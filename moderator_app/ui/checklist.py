"""The official-run walkthrough checklist of a trusted reviewer.

The items come from `core.decision.CHECKLIST_ITEMS` (their ids are stored in the record). The
checklist does not block a decision by itself: accepting with items unticked needs an
override note, which the decision panel asks for and `build_record` enforces.
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QCheckBox, QGroupBox, QLabel, QLineEdit, QVBoxLayout, QWidget

from moderator_app.core.decision import CHECKLIST_IDS, CHECKLIST_ITEMS


class ChecklistWidget(QGroupBox):
    """Five checkboxes and an override note. `changed` fires on any edit."""

    changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("Official walkthrough", parent)
        layout = QVBoxLayout(self)
        self.boxes: dict[str, QCheckBox] = {}
        for item_id, label in CHECKLIST_ITEMS:
            box = QCheckBox(label, self)
            box.setObjectName(f"check-{item_id}")
            box.toggled.connect(self._on_change)
            layout.addWidget(box)
            self.boxes[item_id] = box
        self.override_label = QLabel("Override note (needed to accept with items unticked):")
        layout.addWidget(self.override_label)
        self.override_edit = QLineEdit(self)
        self.override_edit.setObjectName("override-note")
        self.override_edit.setPlaceholderText("why accepting without every check")
        self.override_edit.textChanged.connect(self._on_change)
        layout.addWidget(self.override_edit)

    def _on_change(self, *_: object) -> None:
        self.changed.emit()

    def ticked(self) -> list[str]:
        return [i for i in CHECKLIST_IDS if self.boxes[i].isChecked()]

    def missing(self) -> list[str]:
        return [i for i in CHECKLIST_IDS if not self.boxes[i].isChecked()]

    def set_ticked(self, ids: list[str] | tuple[str, ...]) -> None:
        for i, box in self.boxes.items():
            box.setChecked(i in ids)

    def override_note(self) -> str:
        return self.override_edit.text().strip()

    def reset(self) -> None:
        self.set_ticked(())
        self.override_edit.clear()
