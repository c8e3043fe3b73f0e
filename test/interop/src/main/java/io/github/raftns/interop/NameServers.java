package io.github.raftns.interop;

import java.util.List;
import java.util.stream.Collectors;

/**
 * NameServers is the set of three name servers under test: three independent reference
 * NameServers (NAMESRV=java) or a three-member RaftNS cluster (NAMESRV=raftns).
 */
interface NameServers {
    /** Member is one name server: its id and RocketMQ client address (host:port). */
    interface Member {
        String id();

        String addr();
    }

    /** start starts all members and waits until each accepts clients. */
    void start() throws Exception;

    /** members returns the members in a fixed order. */
    List<? extends Member> members();

    /** leader returns the member to kill in the failover scenario: the Raft leader, or the first member. */
    Member leader() throws Exception;

    /** follower returns a member that is not the leader. */
    Member follower() throws Exception;

    /** kill sends SIGKILL to a member. */
    void kill(Member m);

    /** restart starts a killed member again with the same address and data. */
    void restart(Member m) throws Exception;

    /** replicated reports whether a write to one member shows on every member (RaftNS). */
    boolean replicated();

    /** stop stops every member. */
    void stop();

    /** describe names the kind of name server for logs. */
    String describe();

    /** addrList is the namesrvAddr value naming every member ("a;b;c"). */
    default String addrList() {
        return members().stream().map(Member::addr).collect(Collectors.joining(";"));
    }
}
