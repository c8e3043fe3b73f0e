package io.github.raftns.interop;

/**
 * Report prints one line per check (PASS name / FAIL name: reason / SKIP name: reason) as it happens
 * and the closing "N passed, M failed" line that CI reads.
 */
final class Report {
    private int passed;
    private int failed;
    private int skipped;

    /** check records a check whose failure reason is null when it passed. */
    synchronized boolean check(String name, String failure) {
        if (failure == null) {
            passed++;
            System.out.println("PASS " + name);
        } else {
            failed++;
            System.out.println("FAIL " + name + ": " + oneLine(failure));
        }
        System.out.flush();
        return failure == null;
    }

    /** pass records a passed check with a short note on what was measured. */
    synchronized void pass(String name, String note) {
        passed++;
        System.out.println("PASS " + name + (note == null || note.isEmpty() ? "" : " (" + note + ")"));
        System.out.flush();
    }

    /** fail records a failed check. */
    boolean fail(String name, String reason) {
        return check(name, reason == null ? "failed" : reason);
    }

    /** skip records a check that does not apply to the name servers under test. */
    synchronized void skip(String name, String reason) {
        skipped++;
        System.out.println("SKIP " + name + ": " + oneLine(reason));
        System.out.flush();
    }

    /** info prints a progress line that is neither a check nor a summary. */
    static void info(String msg) {
        System.out.println("# " + msg);
        System.out.flush();
    }

    /** failed returns the number of failed checks so far. */
    synchronized int failed() {
        return failed;
    }

    /** summary prints the closing line. */
    synchronized void summary() {
        String s = passed + " passed, " + failed + " failed";
        if (skipped > 0) {
            s += ", " + skipped + " skipped";
        }
        System.out.println(s);
        System.out.flush();
    }

    private static String oneLine(String s) {
        String t = s.replace('\n', ' ').replace('\r', ' ').trim();
        return t.length() > 600 ? t.substring(0, 600) + "…" : t;
    }
}
