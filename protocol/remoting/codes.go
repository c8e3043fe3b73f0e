package remoting

// Request codes the NameServer answers (Java RequestCode).
const (
	PutKVConfig                  int32 = 100
	GetKVConfig                  int32 = 101
	DeleteKVConfig               int32 = 102
	RegisterBroker               int32 = 103
	UnregisterBroker             int32 = 104
	GetRouteInfoByTopic          int32 = 105
	GetBrokerClusterInfo         int32 = 106
	WipeWritePermOfBroker        int32 = 205
	GetAllTopicListFromNameSrv   int32 = 206
	DeleteTopicInNameSrv         int32 = 216
	RegisterTopicInNameSrv       int32 = 217
	GetKVListByNamespace         int32 = 219
	GetTopicsByCluster           int32 = 224
	GetSystemTopicListFromNS     int32 = 304
	GetUnitTopicList             int32 = 311
	GetHasUnitSubTopicList       int32 = 312
	GetHasUnitSubUnunitTopicList int32 = 313
	UpdateNamesrvConfig          int32 = 318
	GetNamesrvConfig             int32 = 319
	QueryDataVersion             int32 = 322
	AddWritePermOfBroker         int32 = 327
	GetBrokerMemberGroup         int32 = 901
	BrokerHeartbeat              int32 = 904
)

// Response codes (Java ResponseCode and RemotingSysResponseCode).
const (
	Success                 int32 = 0
	SystemError             int32 = 1
	SystemBusy              int32 = 2
	RequestCodeNotSupported int32 = 3
	NoPermission            int32 = 16
	TopicNotExist           int32 = 17
	QueryNotFound           int32 = 22
)
