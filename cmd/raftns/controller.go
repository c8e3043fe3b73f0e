package main

import (
	"fmt"
	"net"
	"strconv"

	"github.com/raftns/raftns/namesrv"
)

// controllerConfig configures the RocketMQ 5 controller (docs/operators/controller.md).
type controllerConfig struct {
	// Enabled serves the controller request codes on the client port
	// (enableControllerInNamesrv; on by default).
	Enabled bool
	// Listen is an optional extra address serving the same protocol, for
	// brokers whose controllerAddr should differ from namesrvAddr.
	Listen string
	// Settings are what UPDATE_CONTROLLER_CONFIG may change.
	Settings map[string]string
}

func defaultControllerConfig() controllerConfig {
	return controllerConfig{Enabled: true, Settings: map[string]string{
		namesrv.PropEnableElectUncleanMaster: "false",
		namesrv.PropNotifyBrokerRoleChanged:  "true",
	}}
}

// Controller property keys.
const (
	keyEnableController = "enableControllerInNamesrv"
	keyControllerListen = "controllerListen"
)

// applyController sets a controller property; handled is false for other
// keys.
func (c *config) applyController(key, value string) (handled bool, err error) {
	switch key {
	case keyEnableController:
		c.Controller.Enabled, err = strconv.ParseBool(value)
	case keyControllerListen:
		if value != "" {
			if _, _, err = net.SplitHostPort(value); err != nil {
				return true, fmt.Errorf("controller listen address %q: %w", value, err)
			}
		}
		c.Controller.Listen = value
	case namesrv.PropEnableElectUncleanMaster, namesrv.PropNotifyBrokerRoleChanged:
		if _, err = strconv.ParseBool(value); err == nil {
			c.Controller.Settings[key] = value
		}
	default:
		return false, nil
	}
	return true, err
}

// controllerProperties adds the controller settings to props.
func (c *config) controllerProperties(props map[string]string) {
	props[keyEnableController] = strconv.FormatBool(c.Controller.Enabled)
	props[keyControllerListen] = c.Controller.Listen
}

// controllerTransport returns the transport's controller configuration.
func (c *config) controllerTransport() namesrv.ControllerConfig {
	return namesrv.ControllerConfig{Enabled: c.Controller.Enabled,
		Settings: namesrv.NewControllerSettings(c.Controller.Settings)}
}
