package io.github.raftns.interop.grpcclient;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.rocketmq.client.apis.ClientConfiguration;
import org.apache.rocketmq.client.apis.ClientServiceProvider;
import org.apache.rocketmq.client.apis.consumer.ConsumeResult;
import org.apache.rocketmq.client.apis.consumer.FilterExpression;
import org.apache.rocketmq.client.apis.consumer.FilterExpressionType;
import org.apache.rocketmq.client.apis.consumer.PushConsumer;
import org.apache.rocketmq.client.apis.message.Message;
import org.apache.rocketmq.client.apis.producer.Producer;

/**
 * GrpcTraffic sends N messages through a RocketMQ proxy's gRPC endpoint with the gRPC client
 * (rocketmq-client-java) and receives them with a push consumer of the same client. It prints
 * "THIRD-SENT" once a third of the sends were acknowledged (the harness then kills the RaftNS
 * leader) and ends with one line
 * "RESULT acked=A retried=R lost=L missing=M duplicates=D seconds=S last=ERROR". A send that fails
 * is retried once, as an application would; lost counts sends that failed twice, missing the
 * acknowledged messages the consumer did not receive within the deadline.
 *
 * Usage: GrpcTraffic ENDPOINT TOPIC GROUP MESSAGES PACE_MILLIS RECEIVE_DEADLINE_SECONDS
 */
public final class GrpcTraffic {
    private GrpcTraffic() {
    }

    /** main runs one traffic run and exits 0 when it could run it at all (the harness judges RESULT). */
    public static void main(String[] args) throws Exception {
        String endpoint = args[0];
        String topic = args[1];
        String group = args[2];
        int n = Integer.parseInt(args[3]);
        long pace = Long.parseLong(args[4]);
        Duration receiveDeadline = Duration.ofSeconds(Long.parseLong(args[5]));

        ClientServiceProvider provider = ClientServiceProvider.loadService();
        ClientConfiguration cfg = ClientConfiguration.newBuilder().setEndpoints(endpoint).enableSsl(false)
            .setRequestTimeout(Duration.ofSeconds(5)).build();
        Set<String> seen = ConcurrentHashMap.newKeySet();
        AtomicInteger deliveries = new AtomicInteger();
        long start = System.nanoTime();
        PushConsumer consumer = provider.newPushConsumerBuilder().setClientConfiguration(cfg)
            .setConsumerGroup(group)
            .setSubscriptionExpressions(Map.of(topic, new FilterExpression("*", FilterExpressionType.TAG)))
            .setMessageListener(view -> {
                deliveries.incrementAndGet();
                seen.add(StandardCharsets.UTF_8.decode(view.getBody()).toString());
                return ConsumeResult.SUCCESS;
            }).build();
        Producer producer = provider.newProducerBuilder().setClientConfiguration(cfg).setTopics(topic).build();
        warmUp(provider, producer, topic, seen);
        Set<String> acked = ConcurrentHashMap.newKeySet();
        int retried = 0;
        int lost = 0;
        String last = "none";
        for (int i = 0; i < n; i++) {
            String body = "g-" + i;
            Message msg = provider.newMessageBuilder().setTopic(topic).setTag("interop").setKeys("k-" + i)
                .setBody(body.getBytes(StandardCharsets.UTF_8)).build();
            String err = send(producer, msg);
            if (err != null) {
                retried++;
                last = err;
                err = send(producer, msg);
            }
            if (err == null) {
                acked.add(body);
            } else {
                lost++;
                last = err;
            }
            if (acked.size() == n / 3 && err == null) {
                System.out.println("THIRD-SENT");
                System.out.flush();
            }
            Thread.sleep(pace);
        }
        long deadline = System.nanoTime() + receiveDeadline.toNanos();
        while (!seen.containsAll(acked) && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        int missing = (int) acked.stream().filter(b -> !seen.contains(b)).count();
        System.out.printf("RESULT acked=%d retried=%d lost=%d missing=%d duplicates=%d seconds=%.1f last=%s%n",
            acked.size(), retried, lost, missing, deliveries.get() - seen.size(),
            (System.nanoTime() - start) / 1e9, last.replace('\n', ' '));
        System.out.flush();
        producer.close();
        consumer.close();
        System.exit(0);
    }

    /**
     * warmUp sends a message every 200 ms until the consumer has received one (at most 60 s): a new
     * consumer group starts at the end of each queue when it first asks, so counted messages wait until
     * it is consuming.
     */
    private static void warmUp(ClientServiceProvider provider, Producer producer, String topic, Set<String> seen)
        throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        for (int i = 0; seen.stream().noneMatch(b -> b.startsWith("warm-")) && System.nanoTime() < deadline; i++) {
            send(producer, provider.newMessageBuilder().setTopic(topic).setTag("interop")
                .setBody(("warm-" + i).getBytes(StandardCharsets.UTF_8)).build());
            Thread.sleep(200);
        }
        System.out.println("WARM " + seen.size());
        System.out.flush();
    }

    private static String send(Producer producer, Message msg) {
        try {
            producer.send(msg);
            return null;
        } catch (Exception e) {
            return e.getClass().getSimpleName() + ": " + e.getMessage();
        }
    }
}
