//! What a tree sees: read-only, hidden and scratch directories, its own `/proc`, and its own
//! network.

use std::process::{Command, Stdio};

use super::{run, scratch};
use crate::{Containment, Limits, Mode};

#[test]
fn read_only_directories_stay_as_they_were_for_the_tree_and_writable_for_the_host() {
    let base = scratch("read-only");
    let (kept, own) = (base.join("cases"), base.join("own"));
    std::fs::create_dir_all(&kept).unwrap();
    std::fs::create_dir_all(&own).unwrap();
    std::fs::write(kept.join("0000.out"), "expected").unwrap();
    let containment = Containment::probe(false);
    let set = match containment.view(&[&own, &kept, &kept.join(".")], &[], &[], 0) {
        Ok(set) => set,
        // Without permission for mount namespaces (not root) the reason is given instead.
        Err(reason) => {
            assert!(
                reason.starts_with("cannot make a mount namespace"),
                "{reason}"
            );
            return;
        }
    };
    assert_eq!(set.read_only().count(), 2, "repeats are taken out");
    let limits = Limits {
        view: set.without(&own),
        ..Limits::default()
    };
    assert_eq!(
        limits.view.read_only().collect::<Vec<_>>(),
        [kept.canonicalize().unwrap()]
    );
    let (kept_text, own_text) = (kept.display(), own.display());
    let (output, code, _) = run(
        &containment,
        &format!(
            "(echo changed > {kept_text}/0000.out) 2>/dev/null || echo refused; \
             setsid sh -c 'rm -f {kept_text}/0000.out; touch {kept_text}/new' 2>/dev/null; \
             echo mine > {own_text}/written && cat {kept_text}/0000.out"
        ),
        &limits,
    );
    assert_eq!((output.as_str(), code), ("refused\nexpected", 0));
    assert_eq!(
        std::fs::read_to_string(kept.join("0000.out")).unwrap(),
        "expected"
    );
    assert!(!kept.join("new").exists());
    assert_eq!(
        std::fs::read_to_string(own.join("written")).unwrap(),
        "mine\n"
    );
    // The host's view is untouched: the directory is still writable here.
    std::fs::write(kept.join("0000.out"), "graded").unwrap();
    std::fs::remove_dir_all(&base).unwrap();
}

#[test]
fn hidden_directories_are_empty_and_unwritable_for_the_tree_and_kept_for_the_host() {
    let base = scratch("hidden");
    let (cases, neighbour, own) = (base.join("cases"), base.join("bob"), base.join("own"));
    for dir in [&cases, &neighbour.join("deep"), &own] {
        std::fs::create_dir_all(dir).unwrap();
    }
    std::fs::write(cases.join("0000.out"), "expected").unwrap();
    std::fs::write(neighbour.join("run.sh"), "echo solved").unwrap();
    let containment = Containment::probe(false);
    let view = match containment.view(
        &[],
        &[&cases, &neighbour, &neighbour.join("deep"), &own],
        &[],
        0,
    ) {
        Ok(view) => view,
        Err(reason) => {
            assert!(
                reason.starts_with("cannot make a mount namespace")
                    || reason == "programs are contained by process group only",
                "{reason}"
            );
            return;
        }
    };
    assert_eq!(view.hidden().count(), 3, "one inside another is left out");
    let limits = Limits {
        view: view.without(&own),
        ..Limits::default()
    };
    let (c, n, o) = (cases.display(), neighbour.display(), own.display());
    let (output, code, _) = run(
        &containment,
        &format!(
            "find {c} {n} -mindepth 1 | wc -l; cat {c}/0000.out {n}/run.sh 2>/dev/null || echo unread; \
             touch {c}/new 2>/dev/null || echo refused; echo mine > {o}/written && cat {o}/written"
        ),
        &limits,
    );
    assert_eq!((output.as_str(), code), ("0\nunread\nrefused\nmine\n", 0));
    assert_eq!(
        std::fs::read_to_string(cases.join("0000.out")).unwrap(),
        "expected"
    );
    assert!(!cases.join("new").exists());
    std::fs::remove_dir_all(&base).unwrap();
}

#[test]
fn a_scratch_directory_is_the_tree_s_own_capped_and_gone_with_it() {
    let base = scratch("scratch");
    let (tmp, work) = (base.join("tmp"), base.join("tmp/work/case"));
    std::fs::create_dir_all(&work).unwrap();
    std::fs::write(tmp.join("host-file"), "the host's").unwrap();
    let containment = Containment::probe(false);
    let Ok(view) = containment.view(&[], &[], &[&tmp], 1 << 20) else {
        return; // Said by `read_only_directories_say_why_they_cannot_be_had`.
    };
    let script = format!(
        "ls -A {t}; cd \"$(pwd)\" && echo here > mine && cat {w}/mine; \
         echo left > {t}/leftover; \
         dd if=/dev/zero of=big bs=1024 count=2048 2>/dev/null || echo full; rm big; \
         for i in $(seq 300); do true > f$i || break; done 2>/dev/null; ls | wc -l",
        t = tmp.display(),
        w = work.display()
    );
    let mut command = Command::new("sh");
    command
        .args(["-c", &script])
        .current_dir(&work)
        .stdout(Stdio::piped());
    let limits = Limits {
        view,
        ..Limits::default()
    };
    let (child, _tree) = containment.spawn(&mut command, &limits).unwrap();
    let output = child.wait_with_output().unwrap();
    assert_eq!(
        String::from_utf8_lossy(&output.stdout),
        "work\nhere\nfull\n252\n",
        "the tree saw its own empty directory, its working directory made again in it, and \
         its caps: 1 MiB, and 256 files (the root, `work`, `case`, `leftover`, and in `case` `mine`\
         and 251 more)"
    );
    // Nothing the tree wrote is left on the host, and the host's files are as they were.
    let mut left: Vec<String> = std::fs::read_dir(&tmp)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    assert_eq!(left, ["host-file", "work"]);
    assert_eq!(std::fs::read_dir(&work).unwrap().count(), 0);
    std::fs::remove_dir_all(&base).unwrap();
}

#[test]
fn a_pid_namespace_has_a_proc_of_its_own_where_it_can() {
    let containment = Containment::probe(false);
    let pid_namespace = matches!(
        containment.mode(),
        Mode::Cgroup {
            pid_namespace: true,
            ..
        } | Mode::PidNamespace { .. }
    );
    if let Some(reason) = containment.host_proc_reason() {
        assert!(
            reason.starts_with("cannot mount a /proc of its own"),
            "{reason}"
        );
        return;
    }
    // The tree sees its reaper (whose command line, a copy of ours, is blank), the shell, and
    // what the shell runs: nothing of the host's.
    let host = std::fs::read_dir("/proc").unwrap().count();
    let (output, code, _) = run(
        &containment,
        "ls /proc | grep -c '^[0-9]'; cat /proc/self/stat | cut -d' ' -f1; \
         tr -d '\\0' < /proc/1/cmdline | wc -c",
        &Limits::default(),
    );
    assert_eq!(code, 0);
    let seen: Vec<usize> = output.lines().map(|line| line.parse().unwrap()).collect();
    if pid_namespace {
        assert!(seen[0] <= 6 && seen[1] < 10 && seen[2] == 0, "{output}");
        assert!(host > seen[0] + 10, "{host} entries here");
    } else {
        assert!(seen[0] > 1, "{output}");
    }
}

#[test]
fn read_only_directories_say_why_they_cannot_be_had() {
    let here = std::env::temp_dir();
    assert_eq!(
        Containment::probe(true).view(&[&here], &[], &[], 0),
        Err("programs are contained by process group only".to_owned())
    );
    let missing = here.join("othello-contain-no-such-directory");
    let reason = Containment::probe(false)
        .view(&[], &[&missing], &[], 0)
        .unwrap_err();
    assert!(
        reason.starts_with(&format!("{}: ", missing.display()))
            || reason == "programs are contained by process group only",
        "{reason}"
    );
}

#[test]
fn an_offline_tree_has_its_loopback_and_nothing_else() {
    let containment = Containment::probe(false);
    if let Err(reason) = containment.offline() {
        assert!(
            reason.starts_with("cannot make a network namespace")
                || reason == "programs are contained by process group only",
            "{reason}"
        );
        return;
    }
    let limits = Limits {
        offline: true,
        ..Limits::default()
    };
    let (output, code, _) = run(
        &containment,
        "tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' '; \
         command -v ip >/dev/null && ip -o link show lo | grep -o ',UP' || echo ,UP",
        &limits,
    );
    assert_eq!((output.as_str(), code), ("lo\n,UP\n", 0));
}
