//! A temporary directory that other system users may enter: the end-to-end mail tests hand files
//! to programs that run as `nobody` (Postfix's `pipe(8)`, Dovecot's mail user), and those cannot
//! reach into a checkout, a target directory or a `$TMPDIR` that only its owner may enter
//! (a home directory with mode 0700, any `mktemp -d`). Removed when dropped.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

/// A directory with mode 0755 under a parent every user can traverse.
pub struct PublicDir {
    path: PathBuf,
}

impl PublicDir {
    /// Creates `<parent>/<prefix>-<random>`, the parent being the first of `$TMPDIR`, `/tmp`,
    /// `/var/tmp` whose every ancestor others may traverse.
    pub fn new(prefix: &str) -> PublicDir {
        let candidates = [std::env::temp_dir(), PathBuf::from("/tmp"), PathBuf::from("/var/tmp")];
        let parent = candidates.iter().find(|p| traversable_by_others(p)).unwrap_or_else(|| {
            panic!("none of {candidates:?} may be entered by other users; the mail tests need one")
        });
        let path = parent.join(format!("{prefix}-{}", uuid::Uuid::new_v4().simple()));
        std::fs::create_dir_all(&path).unwrap_or_else(|e| panic!("creating {}: {e}", path.display()));
        set_mode(&path, 0o755);
        PublicDir { path }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Copies `file` in as `name`, readable and executable by everyone; returns the new path.
    pub fn install_executable(&self, file: &Path, name: &str) -> PathBuf {
        let to = self.path.join(name);
        std::fs::copy(file, &to)
            .unwrap_or_else(|e| panic!("copying {} to {}: {e}", file.display(), to.display()));
        set_mode(&to, 0o755);
        to
    }
}

impl Drop for PublicDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

fn set_mode(path: &Path, mode: u32) {
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))
        .unwrap_or_else(|e| panic!("chmod {mode:o} {}: {e}", path.display()));
}

/// Whether a user who is neither owner nor group member may walk down to `dir`: it and every
/// ancestor carry the others' execute bit.
pub fn traversable_by_others(dir: &Path) -> bool {
    let Ok(dir) = dir.canonicalize() else { return false };
    dir.ancestors()
        .all(|d| std::fs::metadata(d).is_ok_and(|m| m.is_dir() && m.permissions().mode() & 0o001 != 0))
}

#[test]
fn a_private_directory_is_not_traversable_and_a_public_dir_is() {
    let public = PublicDir::new("sm-public-test");
    assert!(traversable_by_others(public.path()));
    let private = public.path().join("private");
    std::fs::create_dir(&private).unwrap();
    set_mode(&private, 0o700);
    assert!(!traversable_by_others(&private), "mode 0700 keeps others out");
}
