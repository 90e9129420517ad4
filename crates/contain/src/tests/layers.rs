//! A sealed host, where a tree writes only what it is given, and a directory it changes in a
//! layer of its own.

use super::{run, scratch};
use crate::{Containment, Limits};

/// The view for `base`'s test: none where this host cannot have it (the reason checked).
fn tried(containment: &Containment, view: Result<crate::View, String>) -> Option<crate::View> {
    let view = match view {
        Ok(view) => view,
        Err(reason) => {
            assert!(
                reason.starts_with("cannot make a mount namespace")
                    || reason == "programs are contained by process group only",
                "{reason}"
            );
            return None;
        }
    };
    match containment.try_view(&view) {
        Ok(()) => Some(view),
        Err(error) => {
            // No mount namespace here, or a kernel without mount_setattr(2) or overlay.
            eprintln!("not tried: {error}");
            None
        }
    }
}

#[test]
fn a_sealed_host_is_read_only_to_the_tree_but_what_it_is_given() {
    let base = scratch("sealed");
    let (host, open) = (base.join("host"), base.join("open"));
    for dir in [&host, &open] {
        std::fs::create_dir_all(dir).unwrap();
    }
    std::fs::write(host.join("kept"), "the host's").unwrap();
    let containment = Containment::probe(false);
    let view = containment
        .view(&[], &[], &[], 1 << 20)
        .and_then(|view| view.sealed(&[&open]).map_err(|error| error.to_string()));
    let Some(view) = tried(&containment, view) else {
        std::fs::remove_dir_all(&base).unwrap();
        return;
    };
    assert!(view.is_sealed());
    assert_eq!(
        view.writable().collect::<Vec<_>>(),
        [open.canonicalize().unwrap()]
    );
    let limits = Limits {
        view,
        ..Limits::default()
    };
    let (h, o) = (host.display(), open.display());
    let (output, code, _) = run(
        &containment,
        &format!(
            "touch {h}/new 2>/dev/null || echo refused; rm -f {h}/kept 2>/dev/null; \
             echo written > {o}/file && cat {o}/file; \
             unshare -Urm sh -c 'mount -o remount,rw / || mount -o remount,rw {h}; \
             touch {h}/escaped' 2>/dev/null; cat {h}/kept"
        ),
        &limits,
    );
    assert_eq!((output.as_str(), code), ("refused\nwritten\nthe host's", 0));
    assert!(!host.join("new").exists() && !host.join("escaped").exists());
    assert_eq!(
        std::fs::read_to_string(open.join("file")).unwrap(),
        "written\n"
    );
    // The host's view is untouched.
    std::fs::write(host.join("new"), "").unwrap();
    std::fs::remove_dir_all(&base).unwrap();
}

#[test]
fn a_layered_directory_is_changed_in_the_tree_s_own_capped_layer_and_kept_for_the_host() {
    let base = scratch("layered");
    // Separators of the overlay's options in the path: escaped.
    let (own, neighbour) = (base.join("al,i:ce"), base.join("bob"));
    for dir in [&own.join("deep"), &neighbour] {
        std::fs::create_dir_all(dir).unwrap();
    }
    std::fs::write(own.join("deep/old"), "old").unwrap();
    std::fs::write(own.join("run.sh"), "the program").unwrap();
    let containment = Containment::probe(false);
    let view = containment
        .view(&[], &[&own, &neighbour], &[], 1 << 20)
        .and_then(|view| view.sealed(&[]).map_err(|error| error.to_string()))
        .and_then(|view| view.layered(&own).map_err(|error| error.to_string()));
    let Some(view) = tried(&containment, view) else {
        std::fs::remove_dir_all(&base).unwrap();
        return;
    };
    assert_eq!(view.hidden().count(), 1, "its own directory is not hidden");
    assert_eq!(
        view.layered_directories().collect::<Vec<_>>(),
        [own.canonicalize().unwrap()]
    );
    let limits = Limits {
        view,
        ..Limits::default()
    };
    let o = own.display();
    let (output, code, _) = run(
        &containment,
        &format!(
            "cd '{o}' && cat run.sh && echo && echo mine > mine && rm deep/old && \
             mv deep moved && echo more >> run.sh && ls -A && cat run.sh; \
             dd if=/dev/zero of=big bs=1024 count=2048 2>/dev/null || echo full; \
             unshare -Urm sh -c 'umount \"{o}\" && touch \"{o}/escaped\"' 2>/dev/null; \
             ls {n} | wc -l",
            n = neighbour.display()
        ),
        &limits,
    );
    assert_eq!(
        (output.as_str(), code),
        (
            "the program\nmine\nmoved\nrun.sh\nthe programmore\nfull\n0\n",
            0
        )
    );
    // The host's directory is as it was: nothing written, moved or removed.
    let mut left: Vec<String> = std::fs::read_dir(&own)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    assert_eq!(left, ["deep", "run.sh"]);
    assert_eq!(
        std::fs::read_to_string(own.join("deep/old")).unwrap(),
        "old"
    );
    assert_eq!(
        std::fs::read_to_string(own.join("run.sh")).unwrap(),
        "the program"
    );
    std::fs::remove_dir_all(&base).unwrap();
}
