//! What UCI and XBoard share: the variant and game an engine session holds, and the search that
//! runs on its own thread while the protocol's reader keeps reading (so `stop` is answered at once).

use super::moves;
use super::timeman::{self, Clock};
use crate::engine::Position;
use crate::game::Game;
use crate::preset::Preset;
use crate::search::{Iteration, Limits, SearchError, SearchResult, Searcher};
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

/// Where a protocol's lines go (stdout, or a buffer in tests); shared with the search thread.
pub type Out = Arc<Mutex<Box<dyn Write + Send>>>;

pub fn stdout() -> Out {
    Arc::new(Mutex::new(Box::new(std::io::stdout())))
}

/// Write lines and flush at once (a GUI waits for them); a closed pipe is the GUI's business.
pub fn say(out: &Out, text: &str) {
    let mut w = out.lock().unwrap_or_else(|p| p.into_inner());
    let _ = writeln!(w, "{text}");
    let _ = w.flush();
}

/// The limits of one search, as a protocol's `go` gives them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime_ms: Option<u64>,
    pub clock: Option<Clock>,
    /// Search until told to stop (and only then answer).
    pub infinite: bool,
}

impl Go {
    /// The search's own limits, the time it aims at, and the moment a watchdog stops it.
    fn plan(&self) -> (Limits, Option<u64>, Option<u64>) {
        let mut limits = Limits { depth: self.depth, nodes: self.nodes, ..Limits::default() };
        let (mut target, mut hard) = (None, self.movetime_ms);
        if let Some(c) = self.clock {
            let a = timeman::allot(c);
            target = Some(a.target_ms);
            hard = Some(hard.map_or(a.hard_ms, |h| h.min(a.hard_ms)));
        }
        limits.time_ms = hard;
        if self.infinite || (limits == Limits::default()) {
            // No limit at all searches as deep as the search goes, until `stop`.
            limits.depth = limits.depth.or(Some((crate::search::MAX_PLY / 2) as u32));
        }
        (limits, target, hard)
    }
}

/// What a finished search gave.
pub struct Finished {
    pub result: Result<SearchResult, SearchError>,
    /// Whether the protocol delivered its answer (none once the search was abandoned).
    pub delivered: bool,
}

struct Running {
    stop: Arc<AtomicBool>,
    /// Set (under the output lock) when the answer must not be given: the game changed meanwhile.
    discard: Arc<AtomicBool>,
    infinite: bool,
    /// Set as the answer is written (under the output lock), so a command that follows it
    /// knows to take the result back first.
    answered: Arc<AtomicBool>,
    handle: JoinHandle<(Searcher, Finished)>,
}

/// How a protocol shows an iteration, and its answer; both run on the search thread.
/// `show` gets the root position, to write the principal variation in.
pub type ShowIteration = Box<dyn Fn(&Out, &Preset, &Position, &Iteration<'_>) + Send + Sync>;
/// The answer writes under the output's lock, so that an abandoned search never half answers.
/// It may be called twice: when it panics before writing anything, again with the search's error.
pub type Answer = Box<dyn Fn(&mut dyn Write, &Result<SearchResult, SearchError>) + Send>;

/// One engine session: the current preset and game, and the search thinking about it.
pub struct Session {
    pub game: Game,
    pub out: Out,
    searcher: Option<Searcher>,
    running: Option<Running>,
}

/// Give the answer; one that panics (a bug in writing the move, like the search's own) before it
/// wrote anything is given again as the search's error, so the GUI still gets its answer and the
/// session goes on (a panic on this thread would end it with "the search thread failed").
fn deliver(answer: &Answer, w: &mut dyn Write, result: &Result<SearchResult, SearchError>) {
    let mut counted = Counted { inner: w, bytes: 0 };
    let tried = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| answer(&mut counted, result)));
    if tried.is_err() && counted.bytes == 0 {
        let _ =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| answer(counted.inner, &Err(SearchError::Failed))));
    }
}

/// A writer that counts what went through it.
struct Counted<'a> {
    inner: &'a mut dyn Write,
    bytes: usize,
}

impl Write for Counted<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.bytes += n;
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

impl Session {
    pub fn new(game: Game, out: Out) -> Session {
        Session { game, out, searcher: Some(Searcher::new()), running: None }
    }

    pub fn say(&self, text: &str) {
        say(&self.out, text);
    }

    pub fn preset(&self) -> Arc<Preset> {
        Arc::clone(&self.game.preset)
    }

    /// Whether the search has given its answer (or is about to: the flag is set first).
    pub fn answered(&self) -> bool {
        self.running.as_ref().is_some_and(|r| r.answered.load(Ordering::Relaxed))
    }

    pub fn thinking(&self) -> bool {
        self.running.as_ref().is_some_and(|r| !r.handle.is_finished())
    }

    /// Ask a running search to stop now and answer with what it has.
    pub fn stop(&self) {
        if let Some(r) = &self.running {
            r.stop.store(true, Ordering::Relaxed);
        }
    }

    /// Wait for the search to end (stopping it first when `stop`) and take its result back.
    pub fn wait(&mut self, stop: bool) -> Option<Finished> {
        let r = self.running.take()?;
        if stop {
            r.stop.store(true, Ordering::Relaxed);
        }
        match r.handle.join() {
            Ok((searcher, finished)) => {
                self.searcher = Some(searcher);
                Some(finished)
            }
            Err(_) => {
                self.searcher = Some(Searcher::new());
                self.say("info string error: the search thread failed");
                None
            }
        }
    }

    /// Let the search finish (an endless one is stopped: it would never end) and take its result.
    pub fn finish(&mut self) -> Option<Finished> {
        let endless = self.running.as_ref().is_some_and(|r| r.infinite);
        self.wait(endless)
    }

    /// Stop a search whose answer is no longer wanted (the game changed): it answers nothing,
    /// unless it already had (then `delivered` says so, and the caller plays its turn).
    pub fn abandon(&mut self) -> Option<Finished> {
        if let Some(r) = &self.running {
            let _guard = self.out.lock().unwrap_or_else(|p| p.into_inner());
            r.discard.store(true, Ordering::Relaxed);
        }
        self.wait(true)
    }

    /// Forget what earlier searches learnt (a new game); a search still running is stopped first.
    pub fn clear(&mut self) {
        self.wait(true);
        if let Some(s) = &mut self.searcher {
            s.clear();
        }
    }

    /// Start searching the current position on a thread; `show` reports each iteration and
    /// `answer` gives the result (unless abandoned). An earlier search is finished first.
    pub fn start(&mut self, go: &Go, show: ShowIteration, answer: Answer) {
        self.finish();
        let stop = Arc::new(AtomicBool::new(false));
        let discard = Arc::new(AtomicBool::new(false));
        let mut searcher = self.searcher.take().unwrap_or_default();
        let preset = self.preset();
        let mut pos: Position = self.game.pos.clone();
        let (limits, target, hard) = go.plan();
        let out = Arc::clone(&self.out);
        let infinite = go.infinite;
        let answered = Arc::new(AtomicBool::new(false));
        let (flag, gone, said) = (Arc::clone(&stop), Arc::clone(&discard), Arc::clone(&answered));
        let run = move || {
            // A watchdog stops the search at the hard limit, however slowly it counts nodes.
            let (done, watch) = mpsc::channel::<()>();
            let dog = hard.map(|ms| {
                let flag = Arc::clone(&flag);
                std::thread::spawn(move || {
                    if let Err(RecvTimeoutError::Timeout) = watch.recv_timeout(Duration::from_millis(ms)) {
                        flag.store(true, Ordering::Relaxed);
                    }
                })
            });
            searcher.set_stop(Some(Arc::clone(&flag)));
            let show: Arc<ShowIteration> = Arc::new(show);
            let shown = Arc::new(AtomicBool::new(false));
            let (o, p, f, root) = (Arc::clone(&out), Arc::clone(&preset), Arc::clone(&flag), pos.clone());
            let (report_show, report_shown) = (Arc::clone(&show), Arc::clone(&shown));
            searcher.set_report(Some(Box::new(move |it: &Iteration<'_>| {
                report_shown.store(true, Ordering::Relaxed);
                report_show(&o, &p, &root, it);
                // Half the target gone: the next iteration would not end in time.
                if target.is_some_and(|t| it.time_ms * 2 >= t) {
                    f.store(true, Ordering::Relaxed);
                }
            })));
            // A search that panics (a bug) still answers the `go` (a GUI would wait for ever), with
            // an error, and the next search starts afresh.
            let result = match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                searcher.search(&preset, &mut pos, &limits)
            })) {
                Ok(result) => result,
                Err(_) => {
                    searcher = Searcher::new();
                    Err(SearchError::Failed)
                }
            };
            searcher.set_report(None);
            searcher.set_stop(None);
            // Stopped inside its first iteration (a tiny node or time limit): a GUI still gets one
            // line with the score and the turn it will play, as depth 0.
            if let Ok(r) = &result
                && !shown.load(Ordering::Relaxed)
            {
                let pv = [r.turn];
                let it = Iteration { depth: r.depth, score: r.score, nodes: r.nodes, time_ms: r.time_ms, pv: &pv };
                show(&out, &preset, &pos, &it);
            }
            drop(done);
            if let Some(d) = dog {
                let _ = d.join();
            }
            // `go infinite` answers only when told to stop.
            while infinite && !flag.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(2));
            }
            let delivered = {
                let mut w = out.lock().unwrap_or_else(|p| p.into_inner());
                let wanted = !gone.load(Ordering::Relaxed);
                if wanted {
                    said.store(true, Ordering::Relaxed);
                    deliver(&answer, &mut **w, &result);
                    let _ = w.flush();
                }
                wanted
            };
            (searcher, Finished { result, delivered })
        };
        match crate::stack::builder().spawn(run) {
            Ok(handle) => self.running = Some(Running { stop, discard, infinite, answered, handle }),
            Err(e) => self.say(&format!("info string error: cannot start the search: {e}")),
        }
    }

    /// Play a turn given in protocol notation (or, failing that, in Herald's own notation); on an
    /// error the game is unchanged.
    pub fn play(game: &mut Game, text: &str) -> Result<(), String> {
        let legal = game.legal().map_err(|e| e.to_string())?;
        if let Some(t) = moves::find(&game.preset, &game.pos, &legal, text) {
            let canonical = game.text(&t);
            return game.play(&canonical).map(|_| ()).map_err(|e| e.to_string());
        }
        if let Some(r) = game.result().map_err(|e| e.to_string())? {
            return Err(format!("`{text}`: the game is over: {r}"));
        }
        let more = moves::continuations(&game.preset, &game.pos, &legal, text);
        if !more.is_empty() {
            return Err(format!("`{text}` needs another part here: the turn goes on as {}", more.join(" or ")));
        }
        // Herald's notation (`Nf3`, `e2-e4`): a word of it, as protocols split on spaces.
        match game.play(text) {
            Ok(_) => Ok(()),
            Err(e) => Err(format!("`{text}` is not a legal turn here ({e})")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Answer, Go, Out, Session};
    use crate::search::SearchError;
    use std::sync::{Arc, Mutex};

    /// A buffer the test reads back while the session writes to it.
    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);

    impl std::io::Write for Shared {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn an_answer_that_panics_is_given_again_as_the_error_and_the_session_goes_on() {
        let buf = Shared::default();
        let out: Out = Arc::new(Mutex::new(Box::new(buf.clone())));
        let game = super::super::uci::load_game("chess").expect("chess loads");
        let mut s = Session::new(game, out);
        let go = Go { depth: Some(1), ..Go::default() };
        let answer: Answer = Box::new(|w, r| match r {
            Ok(_) => panic!("a bug in writing the move"),
            Err(e) => {
                let _ = writeln!(w, "error answer: {e}");
            }
        });
        s.start(&go, Box::new(|_, _, _, _| {}), answer);
        let finished = s.wait(false).expect("the search thread survives a panicking answer");
        assert!(finished.delivered && finished.result.is_ok());
        let text = String::from_utf8(buf.0.lock().unwrap().clone()).unwrap();
        assert_eq!(text, format!("error answer: {}\n", SearchError::Failed));
        // The next search runs and answers as usual.
        s.start(
            &go,
            Box::new(|_, _, _, _| {}),
            Box::new(|w, r| {
                let _ = writeln!(w, "ok {}", r.is_ok());
            }),
        );
        assert!(s.wait(false).is_some());
        assert!(String::from_utf8(buf.0.lock().unwrap().clone()).unwrap().ends_with("ok true\n"));
    }
}
