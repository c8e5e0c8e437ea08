"""What can go wrong talking to a hub."""

from __future__ import annotations

from typing import Any, Optional


class CamHubError(Exception):
    """Base of this package's errors."""


class HubError(CamHubError):
    """The hub answered a message with `error` (docs/PROTOCOL.md, `error`): `code`
    (bad_message, forbidden, conflict, policy, …), its message and `ref`."""

    def __init__(self, code: str, message: str, ref: Optional[str] = None):
        super().__init__(f"{code}: {message}" + (f" (ref {ref})" if ref else ""))
        self.code = code
        self.message = message
        self.ref = ref

    @staticmethod
    def from_wire(o: dict[str, Any]) -> "HubError":
        return HubError(o.get("code", "?"), o.get("message", ""), o.get("ref"))


class Refused(HubError):
    """The hub refused the `hello` (a wrong token, a full room, a bad field)."""


class ProtocolError(CamHubError):
    """A hub message that is not what docs/PROTOCOL.md says (a malformed binary frame)."""


class ConnectionLost(CamHubError):
    """The connection ended (and was not, or could not be, resumed) while waiting for an answer."""
