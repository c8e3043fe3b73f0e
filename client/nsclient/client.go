// Package nsclient is a typed RocketMQ NameServer client over
// protocol/remoting: it speaks to RaftNS or to any RocketMQ name server the
// way brokers, producers and mqadmin do. The tests, raftnsctl and
// raftns-bench use it.
package nsclient

import (
	"context"
	"errors"
	"fmt"
	"hash/crc32"
	"strconv"

	"github.com/raftns/raftns/fsm/state"
	"github.com/raftns/raftns/protocol/body"
	"github.com/raftns/raftns/protocol/remoting"
)

// Version5 and Version49 are the MQVersion ordinals of 5.3.3 and 4.9.8 Java
// software; VersionGo is what rocketmq-client-go sends.
const (
	Version5  int32 = 479
	Version49 int32 = 409
	VersionGo int32 = 317
)

// ResponseError is a response whose code is not SUCCESS.
type ResponseError struct {
	Code   int32
	Remark string
}

func (e *ResponseError) Error() string {
	return fmt.Sprintf("nsclient: response code %d: %s", e.Code, e.Remark)
}

// IsCode reports whether err is a ResponseError with the given code.
func IsCode(err error, code int32) bool {
	var re *ResponseError
	return errors.As(err, &re) && re.Code == code
}

// Client talks to name servers; one Client serves many addresses.
type Client struct {
	rc *remoting.Client
	// Version is the MQVersion sent in requests (default Version5).
	Version int32
	// Language is the LanguageCode name sent (default JAVA).
	Language string
	// Credentials, when set, sign every request (see Credentials).
	Credentials *Credentials
}

// New returns a client over a new remoting client.
func New(cfg remoting.ClientConfig) *Client {
	return &Client{rc: remoting.NewClient(cfg), Version: Version5, Language: "JAVA"}
}

// Close closes every connection.
func (c *Client) Close() error { return c.rc.Close() }

// Remoting exposes the underlying remoting client.
func (c *Client) Remoting() *remoting.Client { return c.rc }

func (c *Client) request(code int32, ext map[string]string, b []byte) *remoting.Command {
	return &remoting.Command{Code: code, Language: c.Language, Version: c.Version, ExtFields: ext, Body: b}
}

// Invoke sends a request and returns the response if it is SUCCESS, or a
// *ResponseError.
func (c *Client) Invoke(ctx context.Context, addr string, req *remoting.Command) (*remoting.Command, error) {
	resp, err := c.rc.Invoke(ctx, addr, c.Credentials.sign(req))
	if err != nil {
		return nil, err
	}
	if resp.Code != remoting.Success {
		return resp, &ResponseError{Code: resp.Code, Remark: resp.Remark}
	}
	return resp, nil
}

// invokeDecode sends a request and decodes the body of its SUCCESS answer.
func invokeDecode[T any](ctx context.Context, c *Client, addr string, req *remoting.Command, decode func([]byte) (T, error)) (T, error) {
	resp, err := c.Invoke(ctx, addr, req)
	if err != nil {
		var zero T
		return zero, err
	}
	return decode(resp.Body)
}

// Registration is what a broker sends in REGISTER_BROKER.
type Registration struct {
	ClusterName, BrokerName, BrokerAddr, HaServerAddr string
	BrokerID                                          int64
	// EnableActingMaster is sent when non-nil, as 5.x brokers do.
	EnableActingMaster *bool
	// HeartbeatTimeoutMillis is sent when positive: the broker's own expiry.
	HeartbeatTimeoutMillis int64
	Body                   body.RegisterBody
	// Compressed sends the zlib body with compressed=true (4.x brokers).
	Compressed bool
	Oneway     bool
}

// RegisterResult is the answer to a registration.
type RegisterResult struct {
	MasterAddr, HaServerAddr string
	// OrderTopicConfig is the ORDER_TOPIC_CONFIG table, nil when absent.
	OrderTopicConfig map[string]string
}

// RegisterBroker sends REGISTER_BROKER with bodyCrc32 set, as brokers do.
func (c *Client) RegisterBroker(ctx context.Context, addr string, r *Registration) (*RegisterResult, error) {
	req, err := c.RegisterRequest(r)
	if err != nil {
		return nil, err
	}
	if r.Oneway {
		return nil, c.rc.InvokeOneway(ctx, addr, c.Credentials.sign(req))
	}
	resp, err := c.Invoke(ctx, addr, req)
	if err != nil {
		return nil, err
	}
	res := &RegisterResult{MasterAddr: resp.ExtFields["masterAddr"], HaServerAddr: resp.ExtFields["haServerAddr"]}
	if len(resp.Body) > 0 {
		if res.OrderTopicConfig, err = body.DecodeKVTable(resp.Body); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// RegisterRequest encodes the REGISTER_BROKER request RegisterBroker sends
// for r, for a caller that sends the same registration many times.
func (c *Client) RegisterRequest(r *Registration) (*remoting.Command, error) {
	b, err := body.EncodeRegisterBody(&r.Body, r.Compressed, c.Version)
	if err != nil {
		return nil, err
	}
	ext := map[string]string{
		"brokerName": r.BrokerName, "brokerAddr": r.BrokerAddr, "clusterName": r.ClusterName,
		"haServerAddr": r.HaServerAddr, "brokerId": strconv.FormatInt(r.BrokerID, 10),
		"compressed": strconv.FormatBool(r.Compressed), "bodyCrc32": strconv.Itoa(int(crc32.ChecksumIEEE(b) & 0x7FFFFFFF)),
	}
	if r.HeartbeatTimeoutMillis > 0 {
		ext["heartbeatTimeoutMillis"] = strconv.FormatInt(r.HeartbeatTimeoutMillis, 10)
	}
	if r.EnableActingMaster != nil {
		ext["enableActingMaster"] = strconv.FormatBool(*r.EnableActingMaster)
	}
	return c.request(remoting.RegisterBroker, ext, b), nil
}

// UnregisterBroker sends UNREGISTER_BROKER.
func (c *Client) UnregisterBroker(ctx context.Context, addr, cluster, name, brokerAddr string, id int64) error {
	_, err := c.Invoke(ctx, addr, c.request(remoting.UnregisterBroker, map[string]string{
		"clusterName": cluster, "brokerName": name, "brokerAddr": brokerAddr, "brokerId": strconv.FormatInt(id, 10),
	}, nil))
	return err
}

// QueryDataVersion sends QUERY_DATA_VERSION and returns "changed" and the
// name server's copy of the DataVersion (nil when it has none).
func (c *Client) QueryDataVersion(ctx context.Context, addr, cluster, name, brokerAddr string, id int64, dv state.DataVersion) (bool, *state.DataVersion, error) {
	resp, err := c.Invoke(ctx, addr, c.request(remoting.QueryDataVersion, map[string]string{
		"clusterName": cluster, "brokerName": name, "brokerAddr": brokerAddr, "brokerId": strconv.FormatInt(id, 10),
	}, body.EncodeDataVersion(dv)))
	if err != nil {
		return false, nil, err
	}
	changed := resp.ExtFields["changed"] == "true"
	if len(resp.Body) == 0 {
		return changed, nil, nil
	}
	stored, err := body.DecodeDataVersion(resp.Body, 0)
	if err != nil {
		return changed, nil, err
	}
	return changed, &stored, nil
}

// GetRoute sends GET_ROUTEINFO_BY_TOPIC; a missing route is a
// *ResponseError with code TopicNotExist.
func (c *Client) GetRoute(ctx context.Context, addr, topic string) (*state.TopicRouteData, error) {
	return invokeDecode(ctx, c, addr, c.request(remoting.GetRouteInfoByTopic, map[string]string{"topic": topic}, nil), body.DecodeTopicRouteData)
}

// GetClusterInfo sends GET_BROKER_CLUSTER_INFO.
func (c *Client) GetClusterInfo(ctx context.Context, addr string) (*state.ClusterInfo, error) {
	return invokeDecode(ctx, c, addr, c.request(remoting.GetBrokerClusterInfo, nil, nil), body.DecodeClusterInfo)
}

// GetAllTopics sends GET_ALL_TOPIC_LIST_FROM_NAMESERVER.
func (c *Client) GetAllTopics(ctx context.Context, addr string) ([]string, error) {
	tl, err := invokeDecode(ctx, c, addr, c.request(remoting.GetAllTopicListFromNameSrv, nil, nil), body.DecodeTopicList)
	if err != nil {
		return nil, err
	}
	return tl.Topics, nil
}

// PutKV sends PUT_KV_CONFIG.
func (c *Client) PutKV(ctx context.Context, addr, namespace, key, value string) error {
	_, err := c.Invoke(ctx, addr, c.request(remoting.PutKVConfig, map[string]string{"namespace": namespace, "key": key, "value": value}, nil))
	return err
}

// GetKV sends GET_KV_CONFIG; a missing key is a *ResponseError with code
// QueryNotFound.
func (c *Client) GetKV(ctx context.Context, addr, namespace, key string) (string, error) {
	resp, err := c.Invoke(ctx, addr, c.request(remoting.GetKVConfig, map[string]string{"namespace": namespace, "key": key}, nil))
	if err != nil {
		return "", err
	}
	return resp.ExtFields["value"], nil
}

// DeleteKV sends DELETE_KV_CONFIG.
func (c *Client) DeleteKV(ctx context.Context, addr, namespace, key string) error {
	_, err := c.Invoke(ctx, addr, c.request(remoting.DeleteKVConfig, map[string]string{"namespace": namespace, "key": key}, nil))
	return err
}

// WipeWritePerm sends WIPE_WRITE_PERM_OF_BROKER and returns the count.
func (c *Client) WipeWritePerm(ctx context.Context, addr, brokerName string) (int, error) {
	return c.writePerm(ctx, addr, remoting.WipeWritePermOfBroker, brokerName, "wipeTopicCount")
}

// AddWritePerm sends ADD_WRITE_PERM_OF_BROKER and returns the count.
func (c *Client) AddWritePerm(ctx context.Context, addr, brokerName string) (int, error) {
	return c.writePerm(ctx, addr, remoting.AddWritePermOfBroker, brokerName, "addTopicCount")
}

func (c *Client) writePerm(ctx context.Context, addr string, code int32, brokerName, field string) (int, error) {
	resp, err := c.Invoke(ctx, addr, c.request(code, map[string]string{"brokerName": brokerName}, nil))
	if err != nil {
		return 0, err
	}
	return strconv.Atoi(resp.ExtFields[field])
}

// DeleteTopic sends DELETE_TOPIC_IN_NAMESRV; cluster may be empty.
func (c *Client) DeleteTopic(ctx context.Context, addr, topic, cluster string) error {
	ext := map[string]string{"topic": topic}
	if cluster != "" {
		ext["clusterName"] = cluster
	}
	_, err := c.Invoke(ctx, addr, c.request(remoting.DeleteTopicInNameSrv, ext, nil))
	return err
}
