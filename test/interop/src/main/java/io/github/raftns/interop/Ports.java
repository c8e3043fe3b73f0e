package io.github.raftns.interop;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Ports hands out free TCP ports on 127.0.0.1 below the Linux ephemeral range (32768+), so that
 * outgoing connections of the processes under test never take a port handed to a listener.
 * A broker needs three related ports (listenPort-2 for its fast channel, listenPort, listenPort+1 for HA).
 */
final class Ports {
    private static final int LOW = 20000;
    private static final int HIGH = 32000;
    private final Set<Integer> given = new HashSet<>();

    /** one returns a free port. */
    synchronized int one() {
        return block(0, 0);
    }

    /** broker returns a listen port P such that P-2, P and P+1 are free. */
    synchronized int broker() {
        return block(-2, 1);
    }

    private int block(int below, int above) {
        for (int attempt = 0; attempt < 2000; attempt++) {
            int p = ThreadLocalRandom.current().nextInt(LOW + 10, HIGH - 10);
            boolean ok = true;
            for (int q = p + below; q <= p + above && ok; q++) {
                ok = !given.contains(q) && free(q);
            }
            if (ok) {
                for (int q = p + below; q <= p + above; q++) {
                    given.add(q);
                }
                return p;
            }
        }
        throw new IllegalStateException("no free port block found in " + LOW + "-" + HIGH);
    }

    private static boolean free(int port) {
        try (ServerSocket s = new ServerSocket()) {
            s.setReuseAddress(false);
            s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
