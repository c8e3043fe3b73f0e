package io.github.raftns.interop;

import java.time.Duration;
import java.util.concurrent.Callable;

/**
 * Poll waits for a condition with a deadline instead of sleeping a fixed time. A probe returns null
 * when the condition holds, otherwise a short reason that becomes the failure message if the
 * deadline passes. A probe that throws counts as "not yet" with the exception as its reason.
 */
final class Poll {
    private Poll() {
    }

    /** Result is the outcome of a poll: failure is null when the probe succeeded, elapsed is the time taken. */
    record Result(String failure, Duration elapsed) {
        boolean ok() {
            return failure == null;
        }

        /** seconds formats the elapsed time for a PASS note. */
        String seconds() {
            return String.format("%.1fs", elapsed.toMillis() / 1000.0);
        }
    }

    /** until polls probe every 250 ms until it returns null or deadline passes. */
    static Result until(Duration deadline, Callable<String> probe) {
        return until(deadline, Duration.ofMillis(250), probe);
    }

    /** until polls probe every interval until it returns null or deadline passes. */
    static Result until(Duration deadline, Duration interval, Callable<String> probe) {
        long start = System.nanoTime();
        long end = start + deadline.toNanos();
        String last = "never probed";
        while (true) {
            try {
                last = probe.call();
            } catch (Exception e) {
                last = describe(e);
            }
            long now = System.nanoTime();
            if (last == null) {
                return new Result(null, Duration.ofNanos(now - start));
            }
            if (now >= end) {
                return new Result("after " + deadline.toSeconds() + "s: " + last, Duration.ofNanos(now - start));
            }
            try {
                Thread.sleep(interval.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return new Result("interrupted: " + last, Duration.ofNanos(System.nanoTime() - start));
            }
        }
    }

    /** describe renders an exception and its root cause on one line. */
    static String describe(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String s = e.getClass().getSimpleName() + ": " + e.getMessage();
        if (root != e) {
            s += " (cause " + root.getClass().getSimpleName() + ": " + root.getMessage() + ")";
        }
        return s;
    }
}
