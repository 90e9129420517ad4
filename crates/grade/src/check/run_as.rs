//! `--run-as USER`: the user the programs run as, looked up by name or number.

use othello_contain::User;

use super::CheckError;

/// The user of `--run-as`, looked up before anything runs.
///
/// # Errors
/// As [`resolve`] says, or anywhere but on Unix.
pub(super) fn user(spec: Option<&str>) -> Result<Option<User>, CheckError> {
    let Some(user) = spec else {
        return Ok(None);
    };
    #[cfg(unix)]
    let resolved = resolve(user);
    #[cfg(not(unix))]
    let resolved = Err("programs run as another user on Unix only".to_owned());
    resolved.map_err(|message| CheckError::RunAs {
        user: user.to_owned(),
        message,
    })
}

#[cfg(unix)]
/// The user `spec` names (a name from the user database, or a number), with that user's group,
/// for a checker running as root; `None` when it is the user this process already is.
///
/// # Errors
/// No such user, or this process is not root (only root may run programs as another user).
pub(super) fn resolve(spec: &str) -> Result<Option<User>, String> {
    let user = lookup(spec)?;
    // SAFETY: geteuid(2) cannot fail.
    let me = unsafe { libc::geteuid() };
    if user.uid == me {
        return Ok(None);
    }
    if me != 0 {
        return Err(format!(
            "only root may run the programs as another user (this is user {me})"
        ));
    }
    Ok(Some(user))
}

#[cfg(unix)]
/// `spec` in the user database (`getpwnam_r`, or `getpwuid_r` for a number); a number that is
/// not there is that user with the group of the same number.
fn lookup(spec: &str) -> Result<User, String> {
    let number = spec.parse::<u32>().ok();
    let name = std::ffi::CString::new(spec).map_err(|_| format!("no user {spec:?}"))?;
    let mut entry: libc::passwd = empty_passwd();
    let mut found: *mut libc::passwd = std::ptr::null_mut();
    let mut buffer = vec![0 as libc::c_char; 16 * 1024];
    // SAFETY: the entry, buffer and result pointer are live and sized as passed; the name is a
    // NUL-terminated string.
    let status = unsafe {
        match number {
            Some(uid) => libc::getpwuid_r(
                uid,
                &raw mut entry,
                buffer.as_mut_ptr(),
                buffer.len(),
                &raw mut found,
            ),
            None => libc::getpwnam_r(
                name.as_ptr(),
                &raw mut entry,
                buffer.as_mut_ptr(),
                buffer.len(),
                &raw mut found,
            ),
        }
    };
    if status == 0 && !found.is_null() {
        return Ok(User {
            uid: entry.pw_uid,
            gid: entry.pw_gid,
        });
    }
    match number {
        Some(uid) => Ok(User { uid, gid: uid }),
        None => Err(format!("no user {spec:?}")),
    }
}

#[cfg(unix)]
/// An all-zero `passwd`, to be filled by the lookup.
fn empty_passwd() -> libc::passwd {
    // SAFETY: `passwd` is plain data (integers and pointers), valid when all zero.
    unsafe { std::mem::zeroed() }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn looks_users_up_by_name_and_number() {
        assert_eq!(lookup("root"), Ok(User { uid: 0, gid: 0 }));
        assert_eq!(lookup("0"), Ok(User { uid: 0, gid: 0 }));
        assert_eq!(
            lookup("4000000000"),
            Ok(User {
                uid: 4_000_000_000,
                gid: 4_000_000_000
            })
        );
        assert_eq!(
            lookup("no-such-user-here"),
            Err("no user \"no-such-user-here\"".to_owned())
        );
    }
}
