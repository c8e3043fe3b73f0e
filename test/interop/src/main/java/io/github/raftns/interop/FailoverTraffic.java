package io.github.raftns.interop;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
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
 * FailoverTraffic sends a message every 20 ms with the real 5.x producer, runs kill after 3 s of sends,
 * keeps sending until 100 sends succeeded after the first success that followed the kill (or a deadline),
 * and waits until the consumer has received every acknowledged message. A send that fails is not retried
 * by us (the producer retries internally); it was never acknowledged, so nothing is owed for it.
 */
final class FailoverTraffic {
    /** Outcome of one run. */
    record Outcome(int acked, int failedSends, int missing, double firstSendSeconds, String lastError, Duration elapsed) {
        String failure() {
            if (missing > 0 || firstSendSeconds < 0) {
                return acked + " acknowledged, " + missing + " not consumed, first send after the kill "
                    + (firstSendSeconds < 0 ? "never" : firstSendSeconds + "s") + (lastError == null ? "" : ", last error: " + lastError);
            }
            return null;
        }

        String note() {
            return acked + " acknowledged and consumed, " + failedSends + " sends failed during the failover, "
                + String.format("%.1fs", elapsed.toMillis() / 1000.0);
        }
    }

    private FailoverTraffic() {
    }

    static Outcome run(String namesrvAddr, String topic, String group, Runnable kill, Duration deadline) throws Exception {
        Set<String> seen = ConcurrentHashMap.newKeySet();
        DefaultMQPushConsumer consumer = new DefaultMQPushConsumer(group);
        consumer.setNamesrvAddr(namesrvAddr);
        consumer.setInstanceName(group + "-c-" + System.nanoTime());
        consumer.setPollNameServerInterval(1000);
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.setAllocateMessageQueueStrategy(new AllocateMessageQueueStrategy() {
            @Override
            public List<MessageQueue> allocate(String g, String id, List<MessageQueue> all, List<String> cids) {
                return all;
            }

            @Override
            public String getName() {
                return "ALL";
            }
        });
        consumer.subscribe(topic, "*");
        consumer.registerMessageListener((MessageListenerConcurrently) (msgs, ctx) -> {
            for (MessageExt m : msgs) {
                seen.add(new String(m.getBody(), StandardCharsets.UTF_8));
            }
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        DefaultMQProducer producer = new DefaultMQProducer(group + "_producer");
        producer.setNamesrvAddr(namesrvAddr);
        producer.setInstanceName(group + "-p-" + System.nanoTime());
        producer.setPollNameServerInterval(1000);
        producer.setSendMsgTimeout(1000);
        producer.setRetryTimesWhenSendFailed(0);
        long start = System.nanoTime();
        consumer.start();
        producer.start();
        Set<String> acked = ConcurrentHashMap.newKeySet();
        int failed = 0;
        String lastError = null;
        long killedAt = 0;
        long firstAfter = -1;
        int afterCount = 0;
        long end = System.nanoTime() + deadline.toNanos();
        try {
            for (int i = 0; System.nanoTime() < end; i++) {
                if (killedAt == 0 && System.nanoTime() - start > 3_000_000_000L + 2_000_000_000L) {
                    killedAt = System.nanoTime();
                    kill.run();
                }
                String body = group + "-" + i;
                Message msg = new Message(topic, "ctl", "k-" + i, body.getBytes(StandardCharsets.UTF_8));
                try {
                    SendResult r = producer.send(msg);
                    if (r.getSendStatus() == SendStatus.SEND_OK) {
                        acked.add(body);
                        if (killedAt != 0) {
                            if (firstAfter < 0) {
                                firstAfter = System.nanoTime();
                            }
                            if (++afterCount >= 100) {
                                break;
                            }
                        }
                    } else {
                        failed++;
                        lastError = "status " + r.getSendStatus();
                    }
                } catch (Exception e) {
                    failed++;
                    lastError = Poll.describe(e);
                }
                Thread.sleep(20);
            }
            Poll.until(Duration.ofSeconds(90), () -> seen.containsAll(acked) ? null : "waiting");
        } finally {
            producer.shutdown();
            consumer.shutdown();
        }
        int missing = (int) acked.stream().filter(b -> !seen.contains(b)).count();
        double first = firstAfter < 0 || killedAt == 0 ? -1 : (firstAfter - killedAt) / 1e9;
        return new Outcome(acked.size(), failed, missing, first, lastError, Duration.ofNanos(System.nanoTime() - start));
    }
}
