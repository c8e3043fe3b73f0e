package main

import (
	"sort"

	"github.com/hashicorp/go-hclog"
)

// Advice for reference NameServer settings that RaftNS does not use.
const (
	adviceThreads     = "RaftNS has no thread pools or request queues to size (requests are bounded by maxRequestMemory and maxConnections); remove it"
	adviceNettyTuning = "a Netty tuning setting with no RaftNS equivalent; remove it"
	adviceShutdown    = "RaftNS always stops gracefully on SIGTERM, handing leadership over first; remove it"
)

// unusedReferenceKeys are the settings of the reference NameServer
// (NamesrvConfig, NettyServerConfig) that RaftNS accepts in a file given
// with -c but does not use, each with what to do instead. The settings it
// uses (listenPort, bindAddress, orderMessageEnable, scanNotActiveBrokerInterval,
// serverChannelMaxIdleTimeSeconds, …) are not listed.
var unusedReferenceKeys = map[string]string{
	"kvConfigPath": "RaftNS keeps KV config in its replicated state, not in a file: import the old file once " +
		"with `raftnsctl kv import FILE` (docs/operators/migration.md), then remove the key",
	"configStorePath": "RaftNS keeps the settings UPDATE_NAMESRV_CONFIG changes in namesrv.properties in its data " +
		"directory (dataDir); remove the key",
	"rocketmqHome": "RaftNS reads nothing under ROCKETMQ_HOME; remove it",

	"clientRequestThreadPoolNums":          adviceThreads,
	"defaultThreadPoolNums":                adviceThreads,
	"clientRequestThreadPoolQueueCapacity": adviceThreads,
	"defaultThreadPoolQueueCapacity":       adviceThreads,
	"unRegisterBrokerQueueCapacity":        adviceThreads,
	"serverWorkerThreads":                  adviceThreads,
	"serverCallbackExecutorThreads":        adviceThreads,
	"serverSelectorThreads":                adviceThreads,
	"serverOnewaySemaphoreValue":           adviceThreads,
	"serverAsyncSemaphoreValue":            adviceThreads,
	"serverNettyWorkerGroupEnable":         adviceThreads,

	"serverSocketSndBufSize":             adviceNettyTuning,
	"serverSocketRcvBufSize":             adviceNettyTuning,
	"serverSocketBacklog":                adviceNettyTuning,
	"writeBufferHighWaterMark":           adviceNettyTuning,
	"writeBufferLowWaterMark":            adviceNettyTuning,
	"serverPooledByteBufAllocatorEnable": adviceNettyTuning,
	"useEpollNativeSelector":             adviceNettyTuning,

	"needWaitForService":    "RaftNS refuses reads until the member is ready, and says so in /readyz; remove it",
	"waitSecondsForService": "RaftNS refuses reads until the member is ready, and says so in /readyz; remove it",
	"notifyMinBrokerIdChangeTimeoutMillis": "RaftNS sends NOTIFY_MIN_BROKER_ID_CHANGE with its own request timeout; " +
		"remove it",
	"enableShutdownGracefully": adviceShutdown,
	"shutdownWaitTimeSeconds":  adviceShutdown,
}

// noteUnusedKeys remembers the keys of props (a file given with -c) that
// RaftNS does not use, to warn about once the logger exists.
func (c *config) noteUnusedKeys(props map[string]string) {
	for k := range props {
		if _, ok := unusedReferenceKeys[k]; ok {
			c.UnusedKeys = append(c.UnusedKeys, k)
		}
	}
	sort.Strings(c.UnusedKeys)
}

// warnUnusedKeys logs one warning per unused reference setting, saying
// what to do about it.
func (c *config) warnUnusedKeys(logger hclog.Logger) {
	for _, k := range c.UnusedKeys {
		logger.Warn("reference NameServer setting not used by RaftNS", "key", k, "file", c.ConfigFile,
			"what_to_do", unusedReferenceKeys[k])
	}
}
