package io.github.raftns.interop;

import com.alibaba.fastjson.JSON;
import com.alibaba.fastjson.JSONObject;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * RaftNameServers runs three members of bin/raftns as one cluster, with the command line of
 * design.md: --id, --listen, --cluster-addr, --http-addr, --data-dir, --peers, plus RAFTNS_EXTRA_ARGS.
 * Readiness is GET /readyz = 200; roles come from GET /v1/status (id, state, leaderId, ready).
 */
final class RaftNameServers implements NameServers {
    /** Node is one raftns member. */
    static final class Node implements Member {
        final String id;
        final int port;
        final int clusterPort;
        final int httpPort;
        final Path dir;
        Proc proc;
        /** added is set for a member added to the running cluster rather than one of the initial --peers. */
        boolean added;
        /** own are flags of this member alone, given after the cluster's. */
        List<String> own = List.of();

        Node(String id, int port, int clusterPort, int httpPort, Path dir) {
            this.id = id;
            this.port = port;
            this.clusterPort = clusterPort;
            this.httpPort = httpPort;
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

        String http() {
            return "http://127.0.0.1:" + httpPort;
        }

        /** admin is the member's admin address (raftnsctl --addr, the address service's domain). */
        String admin() {
            return "127.0.0.1:" + httpPort;
        }
    }

    private final Settings settings;
    private final Procs procs;
    private final List<Node> nodes = new ArrayList<>();
    /** extraArgs are this cluster's own flags, given to each member before RAFTNS_EXTRA_ARGS. */
    private final List<String> extraArgs;
    /** env is added to each member's environment. */
    private final Map<String, String> env;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    RaftNameServers(Settings settings, Procs procs, Ports ports) {
        this(settings, procs, ports, "n");
    }

    /** RaftNameServers prepares a three-member cluster of its own with ids prefix1, prefix2, prefix3. */
    RaftNameServers(Settings settings, Procs procs, Ports ports, String prefix) {
        this(settings, procs, ports, prefix, List.of());
    }

    /** RaftNameServers prepares a three-member cluster of its own whose members all get extraArgs. */
    RaftNameServers(Settings settings, Procs procs, Ports ports, String prefix, List<String> extraArgs) {
        this(settings, procs, ports, prefix, extraArgs, Map.of());
    }

    /** RaftNameServers prepares a three-member cluster of its own whose members get extraArgs and env. */
    RaftNameServers(Settings settings, Procs procs, Ports ports, String prefix, List<String> extraArgs,
                    Map<String, String> env) {
        this.settings = settings;
        this.procs = procs;
        this.extraArgs = List.copyOf(extraArgs);
        this.env = Map.copyOf(env);
        for (int i = 1; i <= 3; i++) {
            nodes.add(new Node(prefix + i, ports.one(), ports.one(), ports.one(), settings.work.resolve("raftns-" + prefix + i)));
        }
    }

    @Override
    public void start() throws Exception {
        if (!Files.isExecutable(settings.raftnsBin)) {
            throw new IllegalStateException("raftns binary not found at " + settings.raftnsBin
                + " (build it with: go build -o bin/raftns ./cmd/raftns)");
        }
        for (Node n : nodes) {
            launch(n);
        }
        for (Node n : nodes) {
            awaitReady(n, Duration.ofSeconds(60));
        }
    }

    private void launch(Node n) throws IOException {
        String peers = nodes.stream().filter(x -> !x.added).map(x -> x.id + "=127.0.0.1:" + x.clusterPort)
            .collect(Collectors.joining(","));
        launch(n, n.added ? List.of("--bootstrap=false") : List.of("--peers", peers));
    }

    private void launch(Node n, List<String> formation) throws IOException {
        Files.createDirectories(n.dir.resolve("data"));
        List<String> cmd = new ArrayList<>(List.of(settings.raftnsBin.toAbsolutePath().toString(),
            "--id", n.id,
            "--listen", n.addr(),
            "--cluster-addr", "127.0.0.1:" + n.clusterPort,
            "--http-addr", "127.0.0.1:" + n.httpPort,
            "--data-dir", n.dir.resolve("data").toString()));
        cmd.addAll(formation);
        cmd.addAll(extraArgs);
        cmd.addAll(n.own);
        cmd.addAll(settings.raftnsExtraArgs);
        n.proc = procs.start("raftns-" + n.id, n.dir, cmd, env);
    }

    /**
     * launchJoiner starts one more member, id, empty and waiting to be added (--bootstrap=false); it is
     * one of members() from now on. Adding it is the caller's (raftnsctl peers add).
     */
    Node launchJoiner(String id, Ports ports) throws IOException {
        return launchJoiner(id, ports, List.of());
    }

    /** launchJoiner starts one more member, as above, with flags of its own after the cluster's. */
    Node launchJoiner(String id, Ports ports, List<String> own) throws IOException {
        Node n = new Node(id, ports.one(), ports.one(), ports.one(), settings.work.resolve("raftns-" + id));
        n.added = true;
        n.own = List.copyOf(own);
        nodes.add(n);
        launch(n);
        return n;
    }

    /** addressService returns what n's address service answers (GET /rocketmq/nsaddr): "CODE BODY". */
    String addressService(Node n) throws IOException, InterruptedException {
        return addressService(n, "nsaddr");
    }

    /** addressService returns what n's address service answers for subgroup: "CODE BODY". */
    String addressService(Node n, String subgroup) throws IOException, InterruptedException {
        HttpResponse<String> resp = get(n, "/rocketmq/" + subgroup);
        return resp.statusCode() + " " + resp.body();
    }

    /** metrics returns n's Prometheus metrics text (GET /metrics). */
    String metrics(Node n) throws IOException, InterruptedException {
        return get(n, "/metrics").body();
    }

    private void awaitReady(Node n, Duration deadline) {
        awaitReady(http, n, deadline);
    }

    /** awaitReady waits until n answers GET /readyz with 200; it fails if n exits first. */
    static void awaitReady(HttpClient http, Node n, Duration deadline) {
        Poll.Result r = Poll.until(deadline, () -> {
            if (!n.proc.alive()) {
                throw new IllegalStateException("raftns " + n.id + " exited: " + n.proc.tail(5));
            }
            HttpResponse<String> resp = get(http, n, "/readyz");
            return resp.statusCode() == 200 ? null : "/readyz answered " + resp.statusCode();
        });
        if (!r.ok()) {
            throw new IllegalStateException("raftns " + n.id + " not ready: " + r.failure());
        }
    }

    private HttpResponse<String> get(Node n, String path) throws IOException, InterruptedException {
        return get(http, n, path);
    }

    private static HttpResponse<String> get(HttpClient http, Node n, String path) throws IOException, InterruptedException {
        HttpRequest req = HttpRequest.newBuilder(URI.create(n.http() + path)).timeout(Duration.ofSeconds(3)).GET().build();
        return http.send(req, HttpResponse.BodyHandlers.ofString());
    }

    /** status returns the parsed /v1/status of a member. */
    JSONObject status(Node n) throws IOException, InterruptedException {
        HttpResponse<String> resp = get(n, "/v1/status");
        if (resp.statusCode() != 200) {
            throw new IOException("/v1/status of " + n.id + " answered " + resp.statusCode());
        }
        return JSON.parseObject(resp.body());
    }

    /** peers returns the parsed /v1/peers of a member: every member with its suffrage and zone. */
    com.alibaba.fastjson.JSONArray peers(Node n) throws IOException, InterruptedException {
        HttpResponse<String> resp = get(n, "/v1/peers");
        if (resp.statusCode() != 200) {
            throw new IOException("/v1/peers of " + n.id + " answered " + resp.statusCode());
        }
        return JSON.parseArray(resp.body());
    }

    @Override
    public List<Node> members() {
        return nodes;
    }

    @Override
    public Member leader() throws Exception {
        String[] found = new String[1];
        Poll.Result r = Poll.until(Duration.ofSeconds(30), () -> {
            for (Node n : nodes) {
                if (n.proc.alive() && "Leader".equalsIgnoreCase(status(n).getString("state"))) {
                    found[0] = n.id;
                    return null;
                }
            }
            return "no member reports state Leader";
        });
        if (!r.ok()) {
            throw new IllegalStateException(r.failure());
        }
        return nodes.stream().filter(n -> n.id.equals(found[0])).findFirst().orElseThrow();
    }

    @Override
    public Member follower() throws Exception {
        Member leader = leader();
        return nodes.stream().filter(n -> n != leader && n.proc.alive()).findFirst().orElseThrow();
    }

    @Override
    public void kill(Member m) {
        ((Node) m).proc.kill();
    }

    @Override
    public void restart(Member m) throws Exception {
        Node n = (Node) m;
        launch(n);
        awaitReady(n, Duration.ofSeconds(60));
    }

    @Override
    public boolean replicated() {
        return true;
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
        return "3-member RaftNS cluster (" + settings.raftnsBin + ")";
    }
}
