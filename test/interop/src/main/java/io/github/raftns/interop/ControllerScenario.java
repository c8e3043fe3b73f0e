package io.github.raftns.interop;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.rocketmq.remoting.protocol.body.BrokerReplicasInfo;
import org.apache.rocketmq.remoting.protocol.header.controller.GetMetaDataResponseHeader;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;

/**
 * ControllerScenario runs a broker group of two 5.5.0 brokers in controller mode
 * (enableControllerMode, allAckInSyncStateSet) whose controllerAddr names the three name servers (RaftNS
 * members; with NAMESRV=java, reference NameServers with the embedded DLedger controller). It checks the
 * elected master and SyncStateSet, then SIGKILLs the master under continuous traffic, restarts it as a
 * slave, and does the same while the controller leader is killed with the master. Each failover reports
 * the time from the kill to the new master and to the first successful send.
 */
final class ControllerScenario {
    static final String BROKER_NAME = "broker-ctl";
    static final String TOPIC = "it-controller";

    private ControllerScenario() {
    }

    /** embeddedController returns the reference NameServer properties of its embedded controller, or "". */
    static String embeddedController(JavaNameServers.Node n, List<JavaNameServers.Node> all) {
        if (n.controllerPort == 0) {
            return "";
        }
        String peers = all.stream().map(x -> x.id + "-127.0.0.1:" + x.controllerPort).collect(Collectors.joining(";"));
        return "enableControllerInNamesrv=true\ncontrollerDLegerGroup=interop\ncontrollerDLegerPeers=" + peers
            + "\ncontrollerDLegerSelfId=" + n.id + "\ncontrollerStorePath=" + n.dir.resolve("controller") + "\n";
    }

    /** controllerAddrs is the brokers' controllerAddr: the members' client ports, or the DLedger ports. */
    private static String controllerAddrs(Ctx c) {
        if (c.ns instanceof JavaNameServers j) {
            return j.members().stream().map(n -> "127.0.0.1:" + n.controllerPort).collect(Collectors.joining(";"));
        }
        return c.ns.addrList();
    }

    /** run starts the group and runs every check. */
    static void run(Ctx c) throws Exception {
        String ctrl = controllerAddrs(c);
        Map<String, String> extra = Map.of("enableControllerMode", "true", "controllerAddr", ctrl,
            "allAckInSyncStateSet", "true", "brokerRole", "SLAVE", "brokerId", "-1");
        Map<String, Broker> brokers = new LinkedHashMap<>();
        for (String name : List.of("ctl-0", "ctl-1")) {
            Broker b = new Broker(c.settings, c.ports, name, BROKER_NAME, -1, Broker.Version.V5, c.ns.addrList(), extra);
            brokers.put(b.addr(), b);
        }
        for (Broker b : brokers.values()) {
            b.launch(c.procs);
        }
        for (Broker b : brokers.values()) {
            b.awaitBoot();
        }
        String firstCtrl = ctrl.split(";")[0];
        if (!c.check("controller.one-master-others-in-sync-state-set", Duration.ofSeconds(120),
            () -> groupSettled(c, firstCtrl, brokers.keySet(), null))) {
            return;
        }
        agreement(c, ctrl, firstCtrl);
        MqAdmin.Result r = c.mqadmin.run5("updateTopic", "-n", c.ns.addrList(), "-c", Broker.CLUSTER,
            "-t", TOPIC, "-r", "4", "-w", "4");
        c.report.check("controller.mqadmin-updateTopic", !r.failed() && r.output().contains("success") ? null : r.brief());

        int rounds = Integer.getInteger("interop.controllerRounds", 1);
        for (int i = 1; i <= rounds; i++) {
            String sfx = rounds == 1 ? "" : "-" + i;
            failover(c, firstCtrl, brokers, false, "controller.master-killed" + sfx);
        }
        for (int i = 1; i <= rounds; i++) {
            String sfx = rounds == 1 ? "" : "-" + i;
            failover(c, firstCtrl, brokers, true, "controller.master-and-controller-leader-killed" + sfx);
        }
    }

    /** groupSettled returns null when one broker is master and every broker of want is in its SyncStateSet. */
    private static String groupSettled(Ctx c, String ctrl, Set<String> want, String wantMaster) throws Exception {
        BrokerReplicasInfo.ReplicasInfo info = syncState(c, ctrl);
        if (info == null || info.getMasterAddress() == null || info.getMasterAddress().isEmpty()) {
            return "no master yet";
        }
        if (wantMaster != null && !wantMaster.equals(info.getMasterAddress())) {
            return "master is " + info.getMasterAddress() + ", want " + wantMaster;
        }
        Set<String> inSync = info.getInSyncReplicas().stream().map(BrokerReplicasInfo.ReplicaIdentity::getBrokerAddress)
            .collect(Collectors.toCollection(TreeSet::new));
        if (!inSync.equals(new TreeSet<>(want))) {
            return "SyncStateSet " + inSync + ", want " + new TreeSet<>(want);
        }
        // Routes: the master registers as id 0, the others under their controller ids.
        Map<Long, String> addrs = c.view.brokerAddrs(c.ns.members().get(0), BROKER_NAME);
        if (addrs == null || !info.getMasterAddress().equals(addrs.get(0L)) || addrs.size() != want.size()) {
            return "route brokerAddrs " + addrs + ", want master " + info.getMasterAddress() + " as id 0";
        }
        return null;
    }

    /** syncState reads the group's replica info from the controller leader (as mqadmin getSyncStateSet). */
    private static BrokerReplicasInfo.ReplicasInfo syncState(Ctx c, String ctrl) throws Exception {
        DefaultMQAdminExt admin = c.view.all();
        BrokerReplicasInfo info = admin.getInSyncStateData(ctrl, List.of(BROKER_NAME));
        return info.getReplicasInfoTable() == null ? null : info.getReplicasInfoTable().get(BROKER_NAME);
    }

    /**
     * agreement checks that mqadmin getSyncStateSet and getControllerMetaData agree with each other and with
     * the admin API (and, for RaftNS, name the Raft leader). Leadership may move while the mqadmin JVMs run, so a
     * disagreement is read again until the deadline.
     */
    private static void agreement(Ctx c, String ctrl, String firstCtrl) throws Exception {
        c.check("controller.mqadmin-getSyncStateSet-and-getControllerMetaData-agree", Duration.ofSeconds(90), () -> {
            BrokerReplicasInfo.ReplicasInfo info = syncState(c, firstCtrl);
            MqAdmin.Result ss = c.mqadmin.run5("getSyncStateSet", "-a", ctrl, "-b", BROKER_NAME);
            MqAdmin.Result meta = c.mqadmin.run5("getControllerMetaData", "-a", firstCtrl);
            GetMetaDataResponseHeader md = c.view.all().getControllerMetaData(firstCtrl);
            List<String> problems = new ArrayList<>();
            String want = "#MasterAddr\t" + info.getMasterAddress();
            if (!ss.output().contains(want) || !ss.output().contains("#SyncStateSetNums\t" + info.getInSyncReplicas().size())) {
                problems.add("getSyncStateSet lacks \"" + want + "\" and the SyncStateSet size: " + ss.brief());
            }
            if (md.getControllerLeaderAddress() == null || !meta.output().contains("#ControllerLeaderAddress\t" + md.getControllerLeaderAddress())) {
                problems.add("getControllerMetaData lacks leader " + md.getControllerLeaderAddress() + ": " + meta.brief());
            }
            if (c.ns.replicated() && !c.ns.leader().addr().equals(md.getControllerLeaderAddress())) {
                problems.add("controller leader " + md.getControllerLeaderAddress() + " is not the RaftNS leader " + c.ns.leader().addr());
            }
            if (problems.isEmpty()) {
                Report.info("controller: master " + info.getMasterAddress() + " epoch " + info.getMasterEpoch()
                    + ", controller leader " + md.getControllerLeaderId() + " " + md.getControllerLeaderAddress());
                return null;
            }
            return String.join("; ", problems);
        });
    }

    /** controllerLeader returns the member that leads the controller (RaftNS: the Raft leader). */
    private static NameServers.Member controllerLeader(Ctx c, String ctrl) throws Exception {
        if (c.ns.replicated()) {
            return c.ns.leader();
        }
        String id = c.view.all().getControllerMetaData(ctrl).getControllerLeaderId();
        return c.ns.members().stream().filter(m -> m.id().equals(id)).findFirst().orElseThrow();
    }

    /**
     * failover SIGKILLs the master (and the controller leader with it when withLeader) while a producer sends
     * every 20 ms and a consumer receives; it checks the survivor becomes the only master, that every
     * acknowledged message is consumed, and that the old master, restarted, rejoins as a slave.
     */
    private static void failover(Ctx c, String firstCtrl, Map<String, Broker> brokers, boolean withLeader, String check)
        throws Exception {
        c.check(check + ".group-in-sync-before", Duration.ofSeconds(120), () -> groupSettled(c, firstCtrl, brokers.keySet(), null));
        BrokerReplicasInfo.ReplicasInfo before = syncState(c, firstCtrl);
        Broker master = brokers.get(before.getMasterAddress());
        Broker survivor = brokers.values().stream().filter(b -> b != master).findFirst().orElseThrow();
        NameServers.Member leader = withLeader ? controllerLeader(c, firstCtrl) : null;
        List<NameServers.Member> live = new ArrayList<>(c.ns.members());
        if (leader != null) {
            live.remove(leader);
        }
        String liveCtrl = c.ns instanceof JavaNameServers j
            ? j.members().stream().filter(n -> live.contains(n)).map(n -> "127.0.0.1:" + n.controllerPort).findFirst().orElseThrow()
            : live.get(0).addr();
        MasterWatch watch = new MasterWatch(c, liveCtrl);
        long[] killedAt = new long[1];
        Runnable kill = () -> {
            killedAt[0] = System.nanoTime();
            master.proc().kill();
            if (leader != null) {
                c.ns.kill(leader);
            }
            watch.start(killedAt[0]);
        };
        FailoverTraffic.Outcome o;
        try {
            o = FailoverTraffic.run(c.ns.addrList(), TOPIC, "ctl_" + check.replaceAll("[^a-z0-9]", "_"), kill,
                Duration.ofSeconds(90));
        } finally {
            watch.stop();
        }
        String master2 = watch.newMasterAt(survivor.addr()) < 0 ? null : survivor.addr();
        double toMaster = watch.newMasterAt(survivor.addr()) < 0 ? -1 : (watch.newMasterAt(survivor.addr()) - killedAt[0]) / 1e9;
        String note = String.format("new master %.2fs, first send %.2fs after the kill; %s", toMaster, o.firstSendSeconds(), o.note());
        Report.info(check + ": " + note + "; epochs seen " + watch.epochs());
        List<String> problems = new ArrayList<>();
        if (o.failure() != null) {
            problems.add(o.failure());
        }
        if (master2 == null) {
            problems.add("survivor " + survivor.addr() + " never became master; epochs seen " + watch.epochs());
        }
        if (watch.splitBrain() != null) {
            problems.add(watch.splitBrain());
        }
        c.report.check(check + ".slave-becomes-master-none-lost", problems.isEmpty() ? null : String.join("; ", problems));
        if (problems.isEmpty()) {
            c.report.pass(check + ".timing", note);
        }
        c.check(check + ".exactly-one-master", Duration.ofSeconds(30), () -> {
            BrokerReplicasInfo.ReplicasInfo now = syncState(c, liveCtrl);
            if (now.getMasterEpoch() != before.getMasterEpoch() + 1) {
                return "master epoch " + now.getMasterEpoch() + ", want exactly one election after " + before.getMasterEpoch();
            }
            String role = c.view.all().getBrokerConfig(survivor.addr()).getProperty("brokerRole");
            return survivor.addr().equals(now.getMasterAddress()) && role != null && role.endsWith("MASTER") ? null
                : "master " + now.getMasterAddress() + ", survivor role " + role;
        });
        if (leader != null) {
            c.ns.restart(leader);
        }
        master.start(c.procs);
        c.check(check + ".old-master-rejoins-as-slave", Duration.ofSeconds(120),
            () -> groupSettled(c, liveCtrl, brokers.keySet(), survivor.addr()));
    }

    /** MasterWatch samples the controller's (epoch, master) every 50 ms after a kill. */
    private static final class MasterWatch {
        private final Ctx c;
        private final String ctrl;
        private final Map<Integer, Set<String>> byEpoch = new HashMap<>();
        private final Map<String, Long> firstSeen = new HashMap<>();
        private volatile boolean running;
        private Thread thread;

        MasterWatch(Ctx c, String ctrl) {
            this.c = c;
            this.ctrl = ctrl;
        }

        synchronized void start(long since) {
            running = true;
            thread = new Thread(() -> {
                while (running) {
                    try {
                        BrokerReplicasInfo.ReplicasInfo r = syncState(c, ctrl);
                        String m = r.getMasterAddress();
                        if (m != null && !m.isEmpty()) {
                            synchronized (this) {
                                byEpoch.computeIfAbsent(r.getMasterEpoch(), e -> new TreeSet<>()).add(m);
                                firstSeen.putIfAbsent(m + "@" + r.getMasterEpoch(), System.nanoTime());
                            }
                        }
                    } catch (Exception e) {
                        // no controller leader for a moment: keep sampling
                    }
                    try {
                        Thread.sleep(50);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }, "master-watch");
            thread.setDaemon(true);
            thread.start();
        }

        void stop() throws InterruptedException {
            running = false;
            if (thread != null) {
                thread.join(5000);
            }
        }

        /** newMasterAt returns when addr was first seen as master, or -1. */
        synchronized long newMasterAt(String addr) {
            return firstSeen.entrySet().stream().filter(e -> e.getKey().startsWith(addr + "@"))
                .mapToLong(Map.Entry::getValue).min().orElse(-1);
        }

        synchronized String splitBrain() {
            for (Map.Entry<Integer, Set<String>> e : byEpoch.entrySet()) {
                if (e.getValue().size() > 1) {
                    return "two masters in epoch " + e.getKey() + ": " + e.getValue();
                }
            }
            return null;
        }

        synchronized String epochs() {
            return byEpoch.toString();
        }
    }
}
