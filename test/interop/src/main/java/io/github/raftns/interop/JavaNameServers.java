package io.github.raftns.interop;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * JavaNameServers runs (normally three) independent Apache RocketMQ reference NameServers
 * (org.apache.rocketmq.namesrv.NamesrvStartup). They share nothing: this mode validates the harness.
 */
final class JavaNameServers implements NameServers {
    /** Node is one reference NameServer process. */
    static final class Node implements Member {
        final String id;
        final int port;
        final Path dir;
        /** controllerPort is the embedded controller's DLedger port (ControllerScenario), 0 when off. */
        int controllerPort;
        Proc proc;

        Node(String id, int port, Path dir) {
            this.id = id;
            this.port = port;
            this.dir = dir;
        }

        @Override
        public String id() {
            return id;
        }

        @Override
        public String addr() {
            return "127.0.0.1:" + port;
        }
    }

    private final Settings settings;
    private final Procs procs;
    private final List<Node> nodes = new ArrayList<>();

    JavaNameServers(Settings settings, Procs procs, Ports ports) {
        this(settings, procs, ports, 3);
    }

    /** JavaNameServers prepares count independent reference NameServers. */
    JavaNameServers(Settings settings, Procs procs, Ports ports, int count) {
        this(settings, procs, ports, count, "n");
    }

    /** JavaNameServers prepares count independent reference NameServers with ids prefix1, prefix2, ... */
    JavaNameServers(Settings settings, Procs procs, Ports ports, int count, String prefix) {
        this.settings = settings;
        this.procs = procs;
        for (int i = 1; i <= count; i++) {
            nodes.add(new Node(prefix + i, ports.one(), settings.work.resolve("namesrv-" + prefix + i)));
        }
        if (count == 3 && settings.wants("controller")) {
            for (Node n : nodes) {
                n.controllerPort = ports.one();
            }
        }
    }

    @Override
    public void start() throws Exception {
        for (Node n : nodes) {
            launch(n);
        }
        for (Node n : nodes) {
            awaitListening(n);
        }
    }

    private void launch(Node n) throws IOException {
        Files.createDirectories(n.dir);
        Path conf = n.dir.resolve("namesrv.properties");
        if (!Files.exists(conf)) {
            // bindAddress keeps the NameServer on loopback. The 5.x NamesrvController also gives its own client
            // its non-loopback address (NetworkUtil.getLocalAddress); scanAvailableNameSrv=false stops that
            // client from connecting there at all.
            Files.writeString(conf, "listenPort=" + n.port + "\n" + "bindAddress=127.0.0.1\n" + "scanAvailableNameSrv=false\n"
                + "kvConfigPath=" + n.dir.resolve("kvConfig.json") + "\n" + ControllerScenario.embeddedController(n, nodes));
        }
        n.proc = procs.java("namesrv-" + n.id, n.dir, settings.classpath5, settings.namesrvJvm,
            "org.apache.rocketmq.namesrv.NamesrvStartup", List.of("-c", conf.toString()),
            Map.of("rocketmq.home.dir", n.dir.toString(),
                "rmq.logback.configurationFile", settings.home.resolve("conf/rmq5-logback.xml").toString()));
    }

    private void awaitListening(Node n) {
        Poll.Result r = Poll.until(Duration.ofSeconds(60), () -> {
            if (!n.proc.alive()) {
                throw new IllegalStateException("name server " + n.id + " exited: " + n.proc.tail(5));
            }
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", n.port), 500);
                return null;
            } catch (IOException e) {
                return "not listening on " + n.port;
            }
        });
        if (!r.ok()) {
            throw new IllegalStateException("name server " + n.id + ": " + r.failure());
        }
    }

    @Override
    public List<Node> members() {
        return nodes;
    }

    @Override
    public Member leader() {
        return nodes.get(0);
    }

    @Override
    public Member follower() {
        return nodes.get(1);
    }

    @Override
    public void kill(Member m) {
        ((Node) m).proc.kill();
    }

    @Override
    public void restart(Member m) throws Exception {
        Node n = (Node) m;
        launch(n);
        awaitListening(n);
    }

    @Override
    public boolean replicated() {
        return false;
    }

    @Override
    public void stop() {
        for (Node n : nodes) {
            if (n.proc != null && n.proc.alive()) {
                n.proc.terminate(Duration.ofSeconds(10));
            }
        }
    }

    @Override
    public String describe() {
        return "3 independent reference NameServers (Apache RocketMQ 5.x NamesrvStartup)";
    }
}
