package io.github.raftns.interop;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * ProxyPipe is a tiny TCP proxy, like a load balancer with the PROXY protocol on: for each connection it
 * writes a PROXY protocol header (version 1 text or version 2 binary) naming the real client, then copies
 * bytes both ways.
 */
final class ProxyPipe implements AutoCloseable {
    private static final byte[] V2_SIGNATURE = {0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D, 0x0A, 0x51, 0x55, 0x49, 0x54, 0x0A};

    private final ServerSocket server;
    private final InetSocketAddress target;
    private final int version;
    /** clients are the real client addresses ("127.0.0.1:port") the proxy announced, in order. */
    final List<String> clients = new CopyOnWriteArrayList<>();

    ProxyPipe(int version, String targetAddr) throws IOException {
        this.version = version;
        String[] hp = targetAddr.split(":");
        this.target = new InetSocketAddress(hp[0], Integer.parseInt(hp[1]));
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread t = new Thread(this::acceptLoop, "proxy-v" + version);
        t.setDaemon(true);
        t.start();
    }

    String addr() {
        return "127.0.0.1:" + server.getLocalPort();
    }

    private void acceptLoop() {
        while (!server.isClosed()) {
            try {
                Socket in = server.accept();
                Socket out = new Socket(target.getAddress(), target.getPort());
                InetSocketAddress src = (InetSocketAddress) in.getRemoteSocketAddress();
                InetSocketAddress dst = (InetSocketAddress) in.getLocalSocketAddress();
                out.getOutputStream().write(version == 1 ? v1(src, dst) : v2(src, dst));
                clients.add("127.0.0.1:" + src.getPort());
                pump(in, out);
                pump(out, in);
            } catch (IOException e) {
                if (!server.isClosed()) {
                    Report.info("proxy v" + version + ": " + e);
                }
            }
        }
    }

    static byte[] v1(InetSocketAddress src, InetSocketAddress dst) {
        return String.format("PROXY TCP4 %s %s %d %d\r\n", src.getAddress().getHostAddress(),
            dst.getAddress().getHostAddress(), src.getPort(), dst.getPort()).getBytes(StandardCharsets.US_ASCII);
    }

    static byte[] v2(InetSocketAddress src, InetSocketAddress dst) {
        ByteBuffer b = ByteBuffer.allocate(16 + 12);
        b.put(V2_SIGNATURE).put((byte) 0x21).put((byte) 0x11).putShort((short) 12); // PROXY, TCP over IPv4
        b.put(src.getAddress().getAddress()).put(dst.getAddress().getAddress());
        b.putShort((short) src.getPort()).putShort((short) dst.getPort());
        return b.array();
    }

    private static void pump(Socket from, Socket to) {
        Thread t = new Thread(() -> {
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                in.transferTo(out);
            } catch (IOException ignored) {
                // either side closed
            } finally {
                try {
                    from.close();
                    to.close();
                } catch (IOException ignored) {
                    // closing anyway
                }
            }
        }, "proxy-pump");
        t.setDaemon(true);
        t.start();
    }

    @Override
    public void close() throws IOException {
        server.close();
    }
}
