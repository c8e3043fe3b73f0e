package io.github.raftns.interop;

import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** SoloRaftNs is one single-member RaftNS started with extra flags (its own cluster, for client-port tests). */
final class SoloRaftNs {
    private final RaftNameServers.Node node;

    SoloRaftNs(Ctx c, String id, List<String> extra) throws Exception {
        Path dir = c.settings.work.resolve("raftns-" + id);
        node = new RaftNameServers.Node(id, c.ports.one(), c.ports.one(), c.ports.one(), dir);
        Files.createDirectories(dir.resolve("data"));
        List<String> cmd = new ArrayList<>(List.of(c.settings.raftnsBin.toAbsolutePath().toString(),
            "--id", id, "--listen", node.addr(), "--cluster-addr", "127.0.0.1:" + node.clusterPort,
            "--http-addr", "127.0.0.1:" + node.httpPort, "--data-dir", dir.resolve("data").toString()));
        cmd.addAll(extra);
        node.proc = c.procs.start("raftns-" + id, dir, cmd, Map.of());
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        RaftNameServers.awaitReady(http, node, Duration.ofSeconds(60));
    }

    /** addr is the member's RocketMQ address. */
    String addr() {
        return node.addr();
    }

    /** log returns what the member printed. */
    String log() {
        return node.proc.output();
    }

    void stop() {
        node.proc.terminate(Duration.ofSeconds(10));
    }
}
