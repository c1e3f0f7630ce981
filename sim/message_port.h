// SPDX-License-Identifier: Apache-2.0
// Typed command/event ports between components: one sender, sinks bound at assembly.
#pragma once
#include <utility>
#include <vector>

namespace stacksim::sim {

/// Receives messages of type `M` from the MessagePorts bound to it.
template <typename M>
class MessageSink {
public:
    virtual ~MessageSink() = default;
    /// Handles one message. A sink may move a movable field out (it takes ownership); sinks bound
    /// after it then see that field moved-from.
    virtual void receive(M& message) = 0;
};

/// The sending end of a message channel (control traffic between modules, not data: no
/// payloads, no back-pressure). Delivery is immediate and ordered: send() hands the message to
/// every bound sink in bind order and returns when they have handled it, like a TLM call with
/// zero annotated delay. A message sent while another is being handled is delivered then
/// (nested), so a receiver may send in turn. Binding happens at assembly; an unbound port drops
/// what is sent (a component whose events nobody listens to).
template <typename M>
class MessagePort {
public:
    /// Adds `sink`; sinks receive in the order they were bound.
    void bind(MessageSink<M>& sink) { m_sinks.push_back(&sink); }
    bool bound() const { return !m_sinks.empty(); }
    void send(M message) {
        for (MessageSink<M>* s : m_sinks) s->receive(message);
    }

private:
    std::vector<MessageSink<M>*> m_sinks;
};

}  // namespace stacksim::sim
