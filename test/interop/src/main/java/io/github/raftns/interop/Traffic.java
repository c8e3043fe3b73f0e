package io.github.raftns.interop;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.rocketmq.client.consumer.AllocateMessageQueueStrategy;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;

/**
 * Traffic sends N messages with the real RocketMQ 5.x Java producer and receives them with a push
 * consumer, optionally running an action (killing a name server) part-way through the sends.
 * Both clients poll the name servers every second so that route lookups happen during a failover.
 */
final class Traffic {
    /** Outcome counts what happened: sends that needed our one retry, sends lost, messages received. */
    record Outcome(int sent, int retried, int lost, int missing, int duplicates, String lastError, Duration elapsed) {
        /** failure returns null when every acknowledged message arrived and none was lost, else a reason. */
        String failure() {
            if (lost > 0 || missing > 0 || sent == 0) {
                return "sent " + sent + ", lost " + lost + " (after one retry each), not received " + missing
                    + (lastError == null ? "" : ", last error: " + lastError);
            }
            return null;
        }

        /** note summarises the outcome for a PASS line. */
        String note() {
            return sent + " sent, " + retried + " needed a retry, all received, " + duplicates + " duplicates, "
                + String.format("%.1fs", elapsed.toMillis() / 1000.0);
        }
    }

    private Traffic() {
    }

    /**
     * run sends n messages to topic (one every paceMillis), calls midway after a third of them, and waits up
     * to receiveDeadline until the consumer group has received every one.
     */
    static Outcome run(String namesrvAddr, String topic, String group, int n, long paceMillis, Runnable midway,
                       Duration receiveDeadline) throws Exception {
        Set<String> seen = ConcurrentHashMap.newKeySet();
        AtomicInteger deliveries = new AtomicInteger();
        DefaultMQPushConsumer consumer = new DefaultMQPushConsumer(group);
        consumer.setNamesrvAddr(namesrvAddr);
        consumer.setInstanceName(group + "-c-" + System.nanoTime());
        consumer.setPollNameServerInterval(1000);
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        // The only consumer of its group takes every queue. With the default (average) strategy a broker that
        // briefly lists this client twice (a stale channel after a timeout on a loaded machine) leaves half the
        // queues to a phantom for two minutes, which has nothing to do with the name servers under test.
        consumer.setAllocateMessageQueueStrategy(new AllQueues());
        consumer.subscribe(topic, "*");
        consumer.registerMessageListener((MessageListenerConcurrently) (msgs, ctx) -> {
            for (MessageExt m : msgs) {
                deliveries.incrementAndGet();
                seen.add(new String(m.getBody(), StandardCharsets.UTF_8));
            }
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        DefaultMQProducer producer = new DefaultMQProducer(group + "_producer");
        producer.setNamesrvAddr(namesrvAddr);
        producer.setInstanceName(group + "-p-" + System.nanoTime());
        producer.setPollNameServerInterval(1000);
        producer.setSendMsgTimeout(3000);
        producer.setRetryTimesWhenSendFailed(2);
        long start = System.nanoTime();
        consumer.start();
        producer.start();
        Set<String> acked = ConcurrentHashMap.newKeySet();
        int sent = 0;
        int retried = 0;
        int lost = 0;
        String lastError = null;
        try {
            for (int i = 0; i < n; i++) {
                if (midway != null && i == n / 3) {
                    midway.run();
                }
                Message msg = new Message(topic, "interop", "k-" + i, ("m-" + i).getBytes(StandardCharsets.UTF_8));
                String err = trySend(producer, msg);
                if (err != null) {
                    retried++;
                    lastError = err;
                    err = trySend(producer, msg);
                }
                if (err == null) {
                    sent++;
                    acked.add("m-" + i);
                } else {
                    lost++;
                    lastError = err;
                }
                if (paceMillis > 0) {
                    Thread.sleep(paceMillis);
                }
            }
            Poll.until(receiveDeadline, () -> seen.containsAll(acked) ? null : "waiting");
        } finally {
            producer.shutdown();
            consumer.shutdown();
        }
        int missing = (int) acked.stream().filter(b -> !seen.contains(b)).count();
        return new Outcome(sent, retried, lost, missing, deliveries.get() - seen.size(), lastError,
            Duration.ofNanos(System.nanoTime() - start));
    }

    /** AllQueues allocates every queue of the topic to the calling consumer. */
    static final class AllQueues implements AllocateMessageQueueStrategy {
        @Override
        public List<MessageQueue> allocate(String group, String clientId, List<MessageQueue> all, List<String> cids) {
            return all;
        }

        @Override
        public String getName() {
            return "ALL";
        }
    }

    private static String trySend(DefaultMQProducer producer, Message msg) {
        try {
            SendResult r = producer.send(msg);
            return r.getSendStatus() == SendStatus.SEND_OK ? null : "status " + r.getSendStatus();
        } catch (Exception e) {
            return Poll.describe(e);
        }
    }
}
