package io.github.raftns.interop;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;

/**
 * ContinuousTraffic keeps a real 5.x producer sending a message every 20 ms, with the client's own
 * retries only, and a push consumer receiving them, for as long as a migration or a membership change
 * runs. switchTo moves both to another namesrvAddr the way an application is redeployed: a new producer
 * and consumer with the new list start, sends go through the new producer, then the old ones shut down.
 * With a null namesrvAddr the clients get none and fetch their list from the address server the
 * rocketmq.namesrv.domain system property names. Every failed send is counted; nothing is retried by
 * the harness.
 */
final class ContinuousTraffic {
    /** Outcome of the whole run. */
    record Outcome(int sent, int failed, int missing, String lastError, Duration elapsed) {
        String failure() {
            if (failed > 0 || missing > 0 || sent == 0) {
                return sent + " sends acknowledged, " + failed + " failed, " + missing + " not consumed"
                    + (lastError == null ? "" : ", last error: " + lastError);
            }
            return null;
        }

        String note() {
            return sent + " sent, 0 failed, all consumed, " + String.format("%.0fs", elapsed.toMillis() / 1000.0);
        }
    }

    private final String topic;
    private final String group;
    private final Set<String> seen = ConcurrentHashMap.newKeySet();
    private final Set<String> acked = ConcurrentHashMap.newKeySet();
    private final AtomicInteger failed = new AtomicInteger();
    private final AtomicInteger generation = new AtomicInteger();
    private final long start = System.nanoTime();
    private volatile DefaultMQProducer producer;
    private volatile DefaultMQProducer next;
    private volatile boolean running = true;
    private volatile String lastError;
    private DefaultMQPushConsumer consumer;
    private final Thread sender;

    /** ContinuousTraffic starts the consumer, the producer and the sending thread on namesrvAddr. */
    ContinuousTraffic(String namesrvAddr, String topic, String group) throws Exception {
        this.topic = topic;
        this.group = group;
        consumer = consumer(namesrvAddr);
        producer = producer(namesrvAddr);
        sender = new Thread(this::sendLoop, "continuous-sender");
        sender.start();
    }

    /** sent returns how many sends were acknowledged so far. */
    int sent() {
        return acked.size();
    }

    /** failedSends returns how many sends failed so far. */
    int failedSends() {
        return failed.get();
    }

    /** nameServers returns the producer's name-server list as its client instance holds it now. */
    java.util.List<String> nameServers() {
        return producer.getDefaultMQProducerImpl().getMqClientFactory().getMQClientAPIImpl().getNameServerAddressList();
    }

    /** switchTo starts a producer and a consumer on namesrvAddr, moves the sends to it and stops the old ones. */
    void switchTo(String namesrvAddr) throws Exception {
        DefaultMQPushConsumer old = consumer;
        consumer = consumer(namesrvAddr);
        next = producer(namesrvAddr);
        Poll.Result r = Poll.until(Duration.ofSeconds(10), () -> next == null ? null : "sender has not switched");
        if (!r.ok()) {
            throw new IllegalStateException(r.failure());
        }
        old.shutdown();
    }

    /** stop stops sending and waits up to deadline until every acknowledged message was received. */
    Outcome stop(Duration deadline) throws Exception {
        running = false;
        sender.join(Duration.ofSeconds(30).toMillis());
        try {
            Poll.until(deadline, () -> seen.containsAll(acked) ? null : "waiting");
        } finally {
            producer.shutdown();
            consumer.shutdown();
        }
        int missing = (int) acked.stream().filter(b -> !seen.contains(b)).count();
        return new Outcome(acked.size(), failed.get(), missing, lastError, Duration.ofNanos(System.nanoTime() - start));
    }

    private void sendLoop() {
        for (int i = 0; running; i++) {
            DefaultMQProducer n = next;
            if (n != null) {
                DefaultMQProducer old = producer;
                producer = n;
                next = null;
                old.shutdown();
            }
            String body = group + "-" + i;
            try {
                SendResult r = producer.send(new Message(topic, "migrate", "k-" + i, body.getBytes(StandardCharsets.UTF_8)));
                if (r.getSendStatus() == SendStatus.SEND_OK) {
                    acked.add(body);
                } else {
                    failed.incrementAndGet();
                    lastError = "status " + r.getSendStatus();
                }
            } catch (Exception e) {
                failed.incrementAndGet();
                lastError = Poll.describe(e);
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private DefaultMQProducer producer(String namesrvAddr) throws Exception {
        DefaultMQProducer p = new DefaultMQProducer(group + "_producer");
        if (namesrvAddr != null) {
            p.setNamesrvAddr(namesrvAddr);
        }
        p.setInstanceName(group + "-p" + generation.incrementAndGet() + "-" + System.nanoTime());
        p.setPollNameServerInterval(1000);
        p.start();
        return p;
    }

    private DefaultMQPushConsumer consumer(String namesrvAddr) throws Exception {
        DefaultMQPushConsumer c = new DefaultMQPushConsumer(group);
        if (namesrvAddr != null) {
            c.setNamesrvAddr(namesrvAddr);
        }
        c.setInstanceName(group + "-c" + generation.incrementAndGet() + "-" + System.nanoTime());
        c.setPollNameServerInterval(1000);
        c.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        // Each consumer takes every queue, so the old and the new one overlap instead of waiting for a rebalance.
        c.setAllocateMessageQueueStrategy(new Traffic.AllQueues());
        c.subscribe(topic, "*");
        c.registerMessageListener((MessageListenerConcurrently) (msgs, ctx) -> {
            for (MessageExt m : msgs) {
                seen.add(new String(m.getBody(), StandardCharsets.UTF_8));
            }
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        c.start();
        return c;
    }
}
