"""The layers of ``autotensor.nn``, one module per family as in ``torch/nn/modules``."""
from .module import Module  # noqa: F401
from .container import (Container, DataParallel, ModuleDict, ModuleList,  # noqa: F401
                        ParameterDict, ParameterList, Sequential)
from .linear import Bilinear, Identity, Linear  # noqa: F401
from .flatten import Flatten, Unflatten  # noqa: F401
from .activation import *  # noqa: F401,F403
from .dropout import (AlphaDropout, Dropout, Dropout1d, Dropout2d, Dropout3d,  # noqa: F401
                      FeatureAlphaDropout)
from .sparse import Embedding  # noqa: F401
from .distance import CosineSimilarity, PairwiseDistance  # noqa: F401
from .normalization import GroupNorm, LayerNorm, RMSNorm  # noqa: F401
from .loss import *  # noqa: F401,F403
from .conv import Conv1d, Conv2d, Conv3d, ConvTranspose1d, ConvTranspose2d  # noqa: F401
from .pooling import (AdaptiveAvgPool1d, AdaptiveAvgPool2d, AvgPool1d, AvgPool2d,  # noqa: F401
                      MaxPool1d, MaxPool2d)
from .batchnorm import BatchNorm1d, BatchNorm2d, BatchNorm3d, SyncBatchNorm  # noqa: F401
from .rnn import GRU, LSTM, RNN, GRUCell, LSTMCell, RNNBase, RNNCell, RNNCellBase  # noqa: F401
from .activation_mha import MultiheadAttention  # noqa: F401
from .pooling import AdaptiveMaxPool1d, AdaptiveMaxPool2d, MaxUnpool1d, MaxUnpool2d  # noqa: F401,E501
from .pooling import (AdaptiveAvgPool3d, AdaptiveMaxPool3d, AvgPool3d, LPPool1d,  # noqa: F401
                      LPPool2d, LPPool3d, MaxPool3d, MaxUnpool3d, FractionalMaxPool2d,
                      FractionalMaxPool3d)
from .padding import *  # noqa: F401,F403
from .pixelshuffle import *  # noqa: F401,F403
from .sparse import EmbeddingBag  # noqa: F401
from .instancenorm import *  # noqa: F401,F403
from .transformer import *  # noqa: F401,F403
from .conv import ConvTranspose3d  # noqa: F401
from .lazy import *  # noqa: F401,F403
from .adaptive import AdaptiveLogSoftmaxWithLoss  # noqa: F401,E402
from .linear_cross_entropy_options import LinearCrossEntropyOptions  # noqa: F401,E402
