package io.github.raftns.interop;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.remoting.protocol.ResponseCode;
import org.apache.rocketmq.remoting.protocol.body.ClusterInfo;
import org.apache.rocketmq.remoting.protocol.body.KVTable;
import org.apache.rocketmq.remoting.protocol.route.BrokerData;
import org.apache.rocketmq.remoting.protocol.route.QueueData;
import org.apache.rocketmq.remoting.protocol.route.TopicRouteData;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;

/**
 * NsView reads the state of each name server separately, through a RocketMQ 5.x admin client
 * whose namesrvAddr names that one member, so a check can say "visible on every member".
 * It also keeps one admin client naming all members for broker-side calls.
 */
final class NsView implements AutoCloseable {
    /** Probe is a per-member check: null when it holds, otherwise a reason. */
    interface Probe {
        String on(NameServers.Member m) throws Exception;
    }

    private final NameServers ns;
    private final Map<String, DefaultMQAdminExt> admins = new HashMap<>();
    private DefaultMQAdminExt all;

    NsView(NameServers ns) {
        this.ns = ns;
    }

    private synchronized DefaultMQAdminExt admin(NameServers.Member m) throws MQClientException {
        DefaultMQAdminExt a = admins.get(m.id());
        if (a == null) {
            a = start(m.addr(), "view-" + m.id());
            admins.put(m.id(), a);
        }
        return a;
    }

    /** all returns an admin client naming every member (for calls that go to brokers). */
    synchronized DefaultMQAdminExt all() throws MQClientException {
        if (all == null) {
            all = start(ns.addrList(), "view-all");
        }
        return all;
    }

    private static DefaultMQAdminExt start(String addr, String instance) throws MQClientException {
        DefaultMQAdminExt a = new DefaultMQAdminExt(5000);
        a.setNamesrvAddr(addr);
        a.setInstanceName(instance + "-" + System.nanoTime());
        a.setAdminExtGroup("interop_admin_" + instance.replace('-', '_') + "_" + System.nanoTime());
        a.start();
        return a;
    }

    /** every runs probe on every member and returns null when it holds on all, else "id: reason; ...". */
    String every(Probe probe) {
        return every(ns.members(), probe);
    }

    /** every runs probe on the given members. */
    static String every(List<? extends NameServers.Member> members, Probe probe) {
        StringBuilder sb = new StringBuilder();
        for (NameServers.Member m : members) {
            String r;
            try {
                r = probe.on(m);
            } catch (Exception e) {
                r = Poll.describe(e);
            }
            if (r != null) {
                sb.append(sb.length() == 0 ? "" : "; ").append(m.id()).append(' ').append(m.addr()).append(": ").append(r);
            }
        }
        return sb.length() == 0 ? null : sb.toString();
    }

    /** route returns the member's route of topic, or null when it answers TOPIC_NOT_EXIST. */
    TopicRouteData route(NameServers.Member m, String topic) throws Exception {
        try {
            return admin(m).examineTopicRouteInfo(topic);
        } catch (MQClientException e) {
            if (e.getResponseCode() == ResponseCode.TOPIC_NOT_EXIST) {
                return null;
            }
            throw e;
        }
    }

    /** cluster returns the member's cluster info. */
    ClusterInfo cluster(NameServers.Member m) throws Exception {
        return admin(m).examineBrokerClusterInfo();
    }

    /** brokerAddrs returns the member's brokerId->address map of brokerName, or null when unknown. */
    Map<Long, String> brokerAddrs(NameServers.Member m, String brokerName) throws Exception {
        BrokerData bd = cluster(m).getBrokerAddrTable().get(brokerName);
        return bd == null ? null : bd.getBrokerAddrs();
    }

    /** kv returns the member's value of namespace/key, or null when it answers QUERY_NOT_FOUND. */
    String kv(NameServers.Member m, String namespace, String key) throws Exception {
        try {
            return admin(m).getKVConfig(namespace, key);
        } catch (MQClientException e) {
            if (e.getResponseCode() == ResponseCode.QUERY_NOT_FOUND) {
                return null;
            }
            throw e;
        }
    }

    /** kvList returns the member's KV table of namespace, or null when it answers QUERY_NOT_FOUND. */
    KVTable kvList(NameServers.Member m, String namespace) throws Exception {
        try {
            return admin(m).getKVListByNamespace(namespace);
        } catch (MQClientException e) {
            if (e.getResponseCode() == ResponseCode.QUERY_NOT_FOUND) {
                return null;
            }
            throw e;
        }
    }

    /** topics returns the member's list of all topics. */
    Set<String> topics(NameServers.Member m) throws Exception {
        return admin(m).fetchAllTopicList().getTopicList();
    }

    /** topicsByCluster returns the member's topics of a cluster. */
    Set<String> topicsByCluster(NameServers.Member m, String cluster) throws Exception {
        return admin(m).fetchTopicsByCLuster(cluster).getTopicList();
    }

    /** config returns the member's name server configuration. */
    Properties config(NameServers.Member m) throws Exception {
        Properties p = admin(m).getNameServerConfig(List.of(m.addr())).get(m.addr());
        if (p == null) {
            throw new IllegalStateException("no config returned");
        }
        return p;
    }

    /** queueData returns the QueueData of brokerName in route, or null. */
    static QueueData queueData(TopicRouteData route, String brokerName) {
        for (QueueData q : route.getQueueDatas()) {
            if (q.getBrokerName().equals(brokerName)) {
                return q;
            }
        }
        return null;
    }

    /** brokerData returns the BrokerData of brokerName in route, or null. */
    static BrokerData brokerData(TopicRouteData route, String brokerName) {
        for (BrokerData b : route.getBrokerDatas()) {
            if (b.getBrokerName().equals(brokerName)) {
                return b;
            }
        }
        return null;
    }

    /**
     * routeHas checks that route has brokerName with exactly the given id->address map and, when queues > 0,
     * a QueueData with that many read and write queues and permission perm (perm < 0 skips the check).
     */
    static String routeHas(TopicRouteData route, String brokerName, Map<Long, String> addrs, int queues, int perm) {
        if (route == null) {
            return "no route (TOPIC_NOT_EXIST)";
        }
        BrokerData bd = brokerData(route, brokerName);
        if (bd == null) {
            return "route has no BrokerData for " + brokerName + ": " + route.getBrokerDatas();
        }
        if (!addrs.equals(bd.getBrokerAddrs())) {
            return "brokerAddrs of " + brokerName + " are " + bd.getBrokerAddrs() + ", want " + addrs;
        }
        if (queues > 0) {
            QueueData q = queueData(route, brokerName);
            if (q == null) {
                return "route has no QueueData for " + brokerName;
            }
            if (q.getReadQueueNums() != queues || q.getWriteQueueNums() != queues) {
                return "queues r" + q.getReadQueueNums() + "/w" + q.getWriteQueueNums() + ", want " + queues;
            }
            if (perm >= 0 && q.getPerm() != perm) {
                return "perm " + q.getPerm() + ", want " + perm;
            }
        }
        return null;
    }

    @Override
    public synchronized void close() {
        admins.values().forEach(DefaultMQAdminExt::shutdown);
        admins.clear();
        if (all != null) {
            all.shutdown();
            all = null;
        }
    }
}
