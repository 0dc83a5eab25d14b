"""Where instance files and published weights come from: the cache, then the offline mirror, then a download;
always checked against their sha256.

Its settings are the context's (``workspace.Context.files``; ``Context.discover`` reads ``FRONTIERCO_MIRROR``, an
offline mirror that CI and the tests set, ``FRONTIERCO_CACHE``, default ``~/.cache/frontierco``, and
``FRONTIERCO_OFFLINE=1``, which forbids downloads); a ``FileStore()`` made without them has the cache's default,
no mirror and downloads on.
"""

from __future__ import annotations

import logging
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from frontierco.errors import RegistryError
from frontierco.names import inside
from frontierco.problems.common.fingerprint import file_sha256

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class FileSource:
    """A file a manifest names: its path in the cache and the mirror, where to download it, its sha256."""

    path: str
    url: str
    sha256: str


def default_cache() -> Path:
    """The cache of a store made without settings (``Context.discover`` reads ``FRONTIERCO_CACHE``)."""
    return Path.home() / ".cache" / "frontierco"


@dataclass
class FileStore:
    """Finds a file instance: cache, then mirror, then download; always checks the sha256."""

    cache: Path = field(default_factory=default_cache)
    mirror: Path | None = None
    offline: bool = False

    def path(self, source: FileSource) -> Path:
        for root in (self.cache, self.mirror):
            if root is not None and (candidate := inside(root, source.path, "file")).is_file():
                return self._checked(candidate, source)
        if self.offline:
            raise RegistryError(f"{source.path} is not in the cache or mirror and downloads are off (FRONTIERCO_OFFLINE=1)")
        return self._download(source)

    def has(self, source: FileSource) -> bool:
        """Whether the cache or the mirror holds the file (nothing is downloaded or checked)."""
        return any(root is not None and inside(root, source.path, "file").is_file() for root in (self.cache, self.mirror))

    def _checked(self, path: Path, source: FileSource) -> Path:
        actual = file_sha256(str(path))
        if actual != source.sha256:
            raise RegistryError(f"checksum mismatch for {path}: expected {source.sha256[:12]}..., got {actual[:12]}...")
        return path

    def _download(self, source: FileSource) -> Path:
        """Download into a temporary file in the cache, check it, and only then move it into place (a wrong
        download leaves nothing behind)."""
        import urllib.request

        target = inside(self.cache, source.path, "file")
        target.parent.mkdir(parents=True, exist_ok=True)
        log.info("downloading %s", source.url)
        with tempfile.NamedTemporaryFile(dir=target.parent, prefix=".download-", delete=False) as tmp:
            temporary = Path(tmp.name)
        try:
            with urllib.request.urlopen(source.url, timeout=60) as response, open(temporary, "wb") as handle:
                shutil.copyfileobj(response, handle)
            if (actual := file_sha256(str(temporary))) != source.sha256:
                expected = f"expected {source.sha256[:12]}..., got {actual[:12]}..."
                raise RegistryError(f"checksum mismatch for {source.url}: {expected} (not kept)")
            temporary.replace(target)
        except OSError as exc:
            raise RegistryError(f"could not download {source.url}: {exc}") from None
        finally:
            temporary.unlink(missing_ok=True)
        return target
