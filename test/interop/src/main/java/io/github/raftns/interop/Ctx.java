package io.github.raftns.interop;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.function.Supplier;

/**
 * Ctx is what every scenario needs: the settings, the report, the processes, the name servers
 * under test and the ways to look at them.
 */
final class Ctx {
    final Settings settings;
    final Report report;
    final Procs procs;
    final Ports ports;
    final NameServers ns;
    final NsView view;
    final MqAdmin mqadmin;

    Ctx(Settings settings, Report report, Procs procs, Ports ports, NameServers ns) {
        this.settings = settings;
        this.report = report;
        this.procs = procs;
        this.ports = ports;
        this.ns = ns;
        this.view = new NsView(ns);
        this.mqadmin = new MqAdmin(settings, procs);
    }

    /** check polls probe until deadline and records PASS (with the time it took) or FAIL. */
    boolean check(String name, Duration deadline, Callable<String> probe) {
        return check(name, deadline, probe, () -> "");
    }

    /** check is check with a note (evaluated right after the probe succeeded) added to the PASS line. */
    boolean check(String name, Duration deadline, Callable<String> probe,
                  Supplier<String> note) {
        Poll.Result r = Poll.until(deadline, probe);
        if (r.ok()) {
            String n = note.get();
            report.pass(name, r.seconds() + (n.isEmpty() ? "" : ", " + n));
            return true;
        }
        return report.fail(name, r.failure());
    }

    /** raftOnly records a check that only RaftNS can pass as SKIP under the reference name servers. */
    boolean raftOnly(String name, Duration deadline, Callable<String> probe) {
        if (!ns.replicated()) {
            report.skip(name, "RaftNS-only: reference NameServers do not share state");
            return true;
        }
        return check(name, deadline, probe);
    }
}
