import CEdit
import Targets
import Plugins
import Reactor
