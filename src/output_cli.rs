//! What the commands write and how they end: results on standard output
//! in step with the progress bar ([`Results`]), diagnostics on standard
//! error that never stop the results ([`note`]), the exit status
//! ([`Status`], [`Fail`]: one meaning for each code across commands), and
//! output files that must not be an input ([`Inputs`]) and are replaced
//! whole ([`Replacing`]).

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Writes one line to standard error. A write that fails (standard error
/// closed, or a full disk) is ignored: diagnostics that cannot be written
/// must not stop the results.
pub fn note(msg: &str) {
    let mut e = io::stderr().lock();
    let _ = e.write_all(msg.as_bytes());
    let _ = e.write_all(b"\n");
}

/// Writes text to standard error as it is (a table ending in a newline),
/// ignoring a failed write as [`note`] does.
pub fn note_text(text: &str) {
    let _ = io::stderr().lock().write_all(text.as_bytes());
}

/// How a command that ran to its end came out (exit statuses 0, 1, 4;
/// see [`exit_code`] and README's "Exit status").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Every record was read and judged (and the verdict, if the command
    /// gives one, is yes): 0.
    Done,
    /// Some input could not be judged: a record that is not a valid puzzle
    /// (or has no or several solutions, where a command needs one), an
    /// input without any puzzle, a rule file with errors (`rules check`): 1.
    Invalid,
    /// The command's verdict is no: `subsume` found a counter-example,
    /// `--verify` a wrong step: 4 (whatever else happened).
    Verdict,
}

impl Status {
    /// [`Status::Invalid`] when `bad`, else [`Status::Done`].
    pub fn invalid_if(bad: bool) -> Status {
        if bad { Status::Invalid } else { Status::Done }
    }

    /// The status of the two together: a verdict wins over invalid
    /// records, which win over none.
    pub fn and(self, other: Status) -> Status {
        use Status::*;
        match (self, other) {
            (Verdict, _) | (_, Verdict) => Verdict,
            (Invalid, _) | (_, Invalid) => Invalid,
            _ => Done,
        }
    }
}

/// Exit status of a usage error, an input that cannot be read or a write
/// error: the command did not run to its end.
pub const EXIT_ERROR: u8 = 2;
/// Exit status when standard output was closed before the end (as in
/// `… | head`): the output is truncated.
pub const EXIT_TRUNCATED: u8 = 3;
/// Exit status of a negative verdict ([`Status::Verdict`]).
pub const EXIT_VERDICT: u8 = 4;

/// Why a command stopped before its end.
pub enum Fail {
    /// A usage, input or output error: printed, exit status 2.
    Error(String),
    /// Standard output was closed by its reader (as in `… | head -1`): stop
    /// quietly, exit status 3 (the output is truncated).
    Closed,
}

impl From<String> for Fail {
    fn from(e: String) -> Fail {
        Fail::Error(e)
    }
}

impl From<io::Error> for Fail {
    fn from(e: io::Error) -> Fail {
        if e.kind() == io::ErrorKind::BrokenPipe {
            Fail::Closed
        } else {
            Fail::Error(format!("standard output: {e}"))
        }
    }
}

/// The exit code of a command's result, its error printed.
pub fn exit_code(result: Result<Status, Fail>) -> ExitCode {
    match result {
        Ok(Status::Done) => ExitCode::SUCCESS,
        Ok(Status::Invalid) => ExitCode::from(1),
        Ok(Status::Verdict) => ExitCode::from(EXIT_VERDICT),
        Err(Fail::Closed) => ExitCode::from(EXIT_TRUNCATED),
        Err(Fail::Error(e)) => {
            if e.starts_with("error") {
                note(&e);
            } else {
                note(&format!("error: {e}"));
            }
            ExitCode::from(EXIT_ERROR)
        }
    }
}

/// A progress bar on a terminal (stderr), hidden when stderr is not one.
pub fn progress(len: Option<u64>) -> ProgressBar {
    let pb = match len {
        Some(n) => ProgressBar::new(n),
        None => ProgressBar::new_spinner(),
    };
    if io::stderr().is_terminal() {
        pb.set_draw_target(ProgressDrawTarget::stderr());
        pb.set_style(
            ProgressStyle::with_template(
                "{spinner} {pos} puzzles {per_sec} {elapsed_precise} {msg}",
            )
            .unwrap_or_else(|_| ProgressStyle::default_spinner()),
        );
    } else {
        pb.set_draw_target(ProgressDrawTarget::hidden());
    }
    pb
}

/// Standard output for results, in step with the progress bar: buffered
/// when it is a file or a pipe; on a terminal every write clears the bar
/// (drawn on stderr, maybe the same terminal) first and draws it again
/// after, so that the bar never overlaps a result line. Messages go to
/// stderr after the results written before them.
pub struct Results<'a> {
    out: io::BufWriter<io::StdoutLock<'static>>,
    pb: &'a ProgressBar,
    tty: bool,
    /// When the results were last flushed: when piped, lines are flushed at
    /// most every [`Results::STREAM_EVERY`], so that a slow batch streams
    /// its lines while a fast one still writes in large blocks.
    flushed: std::time::Instant,
}

impl<'a> Results<'a> {
    const STREAM_EVERY: std::time::Duration = std::time::Duration::from_millis(250);

    pub fn new(pb: &'a ProgressBar) -> Self {
        Results {
            out: io::BufWriter::new(io::stdout().lock()),
            pb,
            tty: io::stdout().is_terminal(),
            flushed: std::time::Instant::now(),
        }
    }

    pub fn write(&mut self, s: &str) -> io::Result<()> {
        if self.tty {
            let out = &mut self.out;
            self.pb.suspend(|| {
                out.write_all(s.as_bytes())?;
                out.flush()
            })
        } else {
            self.out.write_all(s.as_bytes())?;
            if self.flushed.elapsed() >= Self::STREAM_EVERY {
                self.out.flush()?;
                self.flushed = std::time::Instant::now();
            }
            Ok(())
        }
    }

    /// A message on standard error, after the results written so far (a
    /// message that cannot be written is dropped: see [`note`]).
    pub fn message(&mut self, msg: &str) -> io::Result<()> {
        self.out.flush()?;
        self.pb.suspend(|| note(msg));
        Ok(())
    }

    /// Writes out what is buffered (the batch is about to wait for input).
    pub fn flush(&mut self) -> io::Result<()> {
        self.flushed = std::time::Instant::now();
        self.out.flush()
    }

    /// Clears the bar and flushes the results.
    pub fn finish(mut self) -> io::Result<()> {
        self.pb.finish_and_clear();
        self.out.flush()
    }
}

/// The message for an input that held no puzzle at all (status 1).
pub fn no_puzzle(source: &str) -> String {
    format!("{source}: no puzzle found")
}

/// What identifies a file whatever its name: device and inode (a hard
/// link, a symbolic link, `/dev/stdin` and the file itself are one).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct FileId(u64, u64);

impl FileId {
    #[cfg(unix)]
    fn of(m: &std::fs::Metadata) -> FileId {
        use std::os::unix::fs::MetadataExt;
        FileId(m.dev(), m.ino())
    }

    #[cfg(not(unix))]
    fn of(_: &std::fs::Metadata) -> FileId {
        FileId(0, 0)
    }
}

/// The files a command reads (its puzzle input, standard input when it is
/// a file, other files named by options), which no output may be: writing
/// a page or a picture over one would destroy it, and appending results to
/// the input being read would never end.
#[derive(Default)]
pub struct Inputs(Vec<(FileId, String)>);

impl Inputs {
    /// The inputs of a command: `paths` (those that exist), and standard
    /// input when it is a regular file.
    pub fn of<'p>(paths: impl IntoIterator<Item = &'p Path>) -> Inputs {
        let mut inputs = Inputs::default();
        for p in paths {
            if let Ok(m) = std::fs::metadata(p)
                && m.is_file()
            {
                inputs.0.push((FileId::of(&m), p.display().to_string()));
            }
        }
        if let Some(m) = stdio_metadata(0)
            && m.is_file()
        {
            inputs
                .0
                .push((FileId::of(&m), "standard input".to_string()));
        }
        inputs
    }

    /// The input `path` (through links) is, if it is one.
    pub fn which(&self, path: &Path) -> Option<&str> {
        let id = FileId::of(&std::fs::metadata(path).ok()?);
        self.named(id)
    }

    fn named(&self, id: FileId) -> Option<&str> {
        (self.0.iter())
            .find(|(i, _)| *i == id)
            .map(|(_, name)| name.as_str())
    }

    /// An error when the output `path` is one of the inputs (`hint`
    /// says what to do).
    pub fn refuse(&self, path: &Path, hint: &str) -> Result<(), String> {
        let shown = path.display().to_string();
        match self.which(path) {
            Some(input) if input == shown => Err(format!(
                "{shown}: is the input, which writing it would destroy; {hint}"
            )),
            Some(input) => Err(format!(
                "{shown}: is the input ({input}), which writing it would destroy; {hint}"
            )),
            None => Ok(()),
        }
    }

    /// An error when standard output is a regular file that is one of the
    /// inputs (`rate in.txt >> in.txt` would read its own results).
    pub fn refuse_stdout(&self) -> Result<(), String> {
        let Some(m) = stdio_metadata(1).filter(std::fs::Metadata::is_file) else {
            return Ok(());
        };
        match self.named(FileId::of(&m)) {
            Some(input) => Err(format!(
                "standard output is the input ({input}): the results would be written over what is being read; redirect them to another file"
            )),
            None => Ok(()),
        }
    }

    /// An error when a file of `dir` that `is_output` names (a picture
    /// about to be replaced) is one of the inputs.
    pub fn refuse_in_dir(
        &self,
        dir: &Path,
        is_output: impl Fn(&str) -> bool,
    ) -> Result<(), String> {
        if self.0.is_empty() {
            return Ok(());
        }
        let Ok(entries) = std::fs::read_dir(dir) else {
            return Ok(());
        };
        for e in entries.flatten() {
            let name = e.file_name();
            if is_output(&name.to_string_lossy()) {
                self.refuse(&e.path(), "draw into another directory")?;
            }
        }
        Ok(())
    }
}

/// The metadata of standard input (0) or output (1), through its file
/// descriptor (`None` when it is closed or not a Unix system).
fn stdio_metadata(fd: i32) -> Option<std::fs::Metadata> {
    #[cfg(target_os = "linux")]
    {
        std::fs::metadata(format!("/proc/self/fd/{fd}")).ok()
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = fd;
        None
    }
}

/// An output file written whole or not at all: into a temporary file of
/// the same folder, renamed over the target when complete, so that an
/// interrupted run (SIGINT) or a failed write leaves the earlier file as
/// it was, and two runs writing one file do not interleave. A target that
/// exists and is not a regular file (`/dev/null`, a named pipe) is written
/// directly; a symbolic link is followed (the file it names is replaced).
pub struct Replacing {
    w: io::BufWriter<std::fs::File>,
    /// The temporary file to rename, and the target it becomes.
    rename: Option<(tempfile::TempPath, PathBuf)>,
    /// How messages name the target.
    pub name: String,
}

impl Replacing {
    /// Starts writing `path`.
    pub fn create(path: &Path) -> Result<Replacing, String> {
        let name = path.display().to_string();
        let cannot = |e: io::Error| format!("{name}: cannot create: {e}");
        match std::fs::metadata(path) {
            Ok(m) if m.is_dir() => return Err(format!("{name}: is a directory")),
            Ok(m) if !m.is_file() => {
                let f = std::fs::OpenOptions::new()
                    .write(true)
                    .open(path)
                    .map_err(cannot)?;
                return Ok(Replacing {
                    w: io::BufWriter::new(f),
                    rename: None,
                    name,
                });
            }
            _ => {}
        }
        // The file a link names is replaced, not the link.
        let target = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        let dir = match target.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        if !dir.is_dir() {
            return Err(format!(
                "{name}: cannot create: no directory {}",
                dir.display()
            ));
        }
        let prefix = format!(
            ".{}.",
            target
                .file_name()
                .map_or("out".into(), |n| n.to_string_lossy())
        );
        let tmp = tempfile::Builder::new()
            .prefix(&prefix)
            .suffix(".part")
            .tempfile_in(&dir)
            .map_err(cannot)?;
        let (file, tmp_path) = tmp.into_parts();
        Ok(Replacing {
            w: io::BufWriter::new(file),
            rename: Some((tmp_path, target)),
            name,
        })
    }

    pub fn write(&mut self, s: &str) -> Result<(), String> {
        self.w
            .write_all(s.as_bytes())
            .map_err(|e| format!("{}: cannot write: {e}", self.name))
    }

    /// Flushes the file and puts it in place.
    pub fn finish(self) -> Result<(), String> {
        let Replacing { w, rename, name } = self;
        let file = w
            .into_inner()
            .map_err(|e| format!("{name}: cannot write: {}", e.error()))?;
        if let Some((tmp, target)) = rename {
            file.sync_all()
                .map_err(|e| format!("{name}: cannot write: {e}"))?;
            // The permissions of the file replaced, or those a created
            // file gets (the temporary file is private to its owner).
            #[cfg(unix)]
            {
                use std::os::unix::fs::PermissionsExt;
                let perms = match std::fs::metadata(&target) {
                    Ok(m) => m.permissions(),
                    Err(_) => std::fs::Permissions::from_mode(0o666 & !umask()),
                };
                let _ = std::fs::set_permissions(&tmp, perms);
            }
            tmp.persist(&target)
                .map_err(|e| format!("{name}: cannot write: {}", e.error))?;
        }
        Ok(())
    }
}

/// The process's file creation mask.
#[cfg(unix)]
fn umask() -> u32 {
    // Read from /proc (setting it to read it back is not thread-safe).
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("Umask:"))
                .and_then(|v| u32::from_str_radix(v.trim(), 8).ok())
        })
        .unwrap_or(0o022)
}
