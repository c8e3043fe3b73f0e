package io.github.raftns.interop.v4;

import java.nio.charset.StandardCharsets;
import org.apache.rocketmq.acl.common.AclClientRPCHook;
import org.apache.rocketmq.acl.common.SessionCredentials;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;

/**
 * AclProducer4 is a RocketMQ 4.9.8 producer with the ACL client hook (every request it sends, to the
 * name server and to the broker, carries AccessKey and Signature). Arguments: NAMESRV TOPIC ACCESS_KEY
 * SECRET_KEY. It sends three messages and prints "ACLPRODUCER OK" (exit 0) or "ACLPRODUCER FAILED"
 * with the reason (exit 1).
 */
public final class AclProducer4 {
    private AclProducer4() {
    }

    public static void main(String[] args) {
        if (args.length != 4) {
            System.out.println("usage: AclProducer4 NAMESRV TOPIC ACCESS_KEY SECRET_KEY");
            System.exit(2);
        }
        DefaultMQProducer producer = new DefaultMQProducer("acl-interop-producer",
            new AclClientRPCHook(new SessionCredentials(args[2], args[3])));
        producer.setNamesrvAddr(args[0]);
        producer.setInstanceName("aclproducer4-" + System.nanoTime());
        String problem = null;
        try {
            producer.start();
            for (int i = 0; i < 3; i++) {
                SendResult r = producer.send(new Message(args[1], ("acl " + i).getBytes(StandardCharsets.UTF_8)), 10000);
                if (r.getSendStatus() != SendStatus.SEND_OK) {
                    problem = "send " + i + ": " + r.getSendStatus();
                    break;
                }
                System.out.println("SENT " + i + " to " + r.getMessageQueue());
            }
        } catch (Exception e) {
            problem = e.toString();
        } finally {
            producer.shutdown();
        }
        System.out.println(problem == null ? "ACLPRODUCER OK" : "ACLPRODUCER FAILED: " + problem);
        System.exit(problem == null ? 0 : 1);
    }
}
