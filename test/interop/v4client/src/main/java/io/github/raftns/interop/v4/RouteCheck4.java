package io.github.raftns.interop.v4;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.protocol.route.BrokerData;
import org.apache.rocketmq.common.protocol.route.QueueData;
import org.apache.rocketmq.common.protocol.route.TopicRouteData;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;

/**
 * RouteCheck4 is the RocketMQ 4.9.x client side of the interop harness. Arguments:
 * NAMESRV_LIST TOPIC BROKER_NAME BROKER_ADDR QUEUES. It reads the topic's route from every name
 * server in the list (one 4.9.x admin client per member), checks the broker's address and queue
 * counts, then sends three messages with a 4.9.x producer. It prints one line per step and ends with
 * "ROUTECHECK OK" (exit 0) or "ROUTECHECK FAILED" (exit 1).
 */
public final class RouteCheck4 {
    private RouteCheck4() {
    }

    public static void main(String[] args) {
        if (args.length != 5) {
            System.out.println("usage: RouteCheck4 NAMESRV_LIST TOPIC BROKER_NAME BROKER_ADDR QUEUES");
            System.exit(2);
        }
        List<String> problems = new ArrayList<>();
        for (String ns : args[0].split(";")) {
            String p = checkRoute(ns, args[1], args[2], args[3], Integer.parseInt(args[4]));
            System.out.println(p == null ? "ROUTE " + ns + " ok" : "PROBLEM route from " + ns + ": " + p);
            if (p != null) {
                problems.add(p);
            }
        }
        String p = send(args[0], args[1]);
        System.out.println(p == null ? "SEND ok" : "PROBLEM send: " + p);
        if (p != null) {
            problems.add(p);
        }
        System.out.println(problems.isEmpty() ? "ROUTECHECK OK" : "ROUTECHECK FAILED");
        System.exit(problems.isEmpty() ? 0 : 1);
    }

    private static String checkRoute(String ns, String topic, String brokerName, String brokerAddr, int queues) {
        DefaultMQAdminExt admin = new DefaultMQAdminExt(5000);
        admin.setNamesrvAddr(ns);
        admin.setInstanceName("routecheck4-" + System.nanoTime());
        try {
            admin.start();
            TopicRouteData route = admin.examineTopicRouteInfo(topic);
            BrokerData bd = route.getBrokerDatas().stream().filter(b -> b.getBrokerName().equals(brokerName))
                .findFirst().orElse(null);
            if (bd == null) {
                return "no BrokerData for " + brokerName + " in " + route;
            }
            if (!Map.of(0L, brokerAddr).equals(bd.getBrokerAddrs())) {
                return "brokerAddrs " + bd.getBrokerAddrs() + ", want {0=" + brokerAddr + "}";
            }
            QueueData qd = route.getQueueDatas().stream().filter(q -> q.getBrokerName().equals(brokerName))
                .findFirst().orElse(null);
            if (qd == null || qd.getReadQueueNums() != queues || qd.getWriteQueueNums() != queues) {
                return "queue data " + qd + ", want " + queues + " queues";
            }
            return null;
        } catch (Exception e) {
            return e.toString();
        } finally {
            admin.shutdown();
        }
    }

    private static String send(String nsList, String topic) {
        DefaultMQProducer producer = new DefaultMQProducer("interop_v4_producer");
        producer.setNamesrvAddr(nsList);
        producer.setInstanceName("routecheck4-p-" + System.nanoTime());
        try {
            producer.start();
            for (int i = 0; i < 3; i++) {
                Message m = new Message(topic, ("v4-" + i).getBytes(StandardCharsets.UTF_8));
                SendResult r = producer.send(m);
                if (r.getSendStatus() != SendStatus.SEND_OK) {
                    return "send status " + r.getSendStatus();
                }
            }
            return null;
        } catch (Exception e) {
            return e.toString();
        } finally {
            producer.shutdown();
        }
    }
}
